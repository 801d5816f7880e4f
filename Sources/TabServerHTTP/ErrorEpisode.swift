// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Counts errors of one kind (a failed system call, an undecodable session, a lost
/// publish) and says which to log: the first of an episode, then, while they go on, at
/// most one line per `interval` carrying how many came since. Every error is counted in
/// `total` (for `/metrics`); the log stays readable during a storm.
///
/// ```swift
/// let corrupt = ErrorEpisode()
/// if let count = corrupt.record() { log.write("\(count) undecodable session(s)", level: .error) }
/// ```
public final class ErrorEpisode: Sendable {
    private struct State {
        var total = 0
        var sinceLogged = 0
        var lastLogged: UInt64?
    }

    private let state = Mutex(State())
    private let intervalNanos: UInt64
    private let clock: @Sendable () -> UInt64

    /// `clock`: monotonic nanoseconds (tests pass their own).
    public init(interval: Duration = .seconds(60), clock: @escaping @Sendable () -> UInt64 = ErrorEpisode.now) {
        let (seconds, attoseconds) = interval.components
        intervalNanos = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.clock = clock
    }

    /// Errors recorded since start.
    public var total: Int { state.withLock { $0.total } }

    /// Records one error. Returns how many errors this log line should speak for (this
    /// one and those not logged since the last line) when it is to be logged, else nil.
    public func record() -> Int? {
        let now = clock()
        return state.withLock { state -> Int? in
            state.total += 1
            state.sinceLogged += 1
            if let last = state.lastLogged, now &- last < intervalNanos { return nil }
            state.lastLogged = now
            defer { state.sinceLogged = 0 }
            return state.sinceLogged
        }
    }

    /// Monotonic nanoseconds.
    @Sendable public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
