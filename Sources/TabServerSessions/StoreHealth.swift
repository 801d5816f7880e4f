// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP
import TabServerThreads

/// Whether a session store works, as its own operations find it, with one log line per
/// change of state and a background probe while it does not.
///
/// A store reports every operation's outcome: a failure marks it down, a success that
/// proves the store can serve (for SQLite: a write; for Redis: any reply) marks it up.
/// Only the changes are logged (up → down with the reason, down → up), so a failing
/// store under load writes two lines, not one per request. While down, a background
/// probe (the store's own, e.g. a one-row write or a `PING`) runs every
/// `probeInterval` until it succeeds, so readiness comes back by itself even when no
/// request arrives.
///
/// ```swift
/// let health = StoreHealth(name: "sqlite:data/sessions.sqlite", probeInterval: .seconds(1), log: log)
/// health.recordFailure(error) { [weak store] in store?.probeWrite() ?? true }
/// health.isUp   // false until a write or the probe succeeds
/// ```
public final class StoreHealth: Sendable {
    /// Where the changes go: the message and whether it reports a failure.
    public typealias Log = @Sendable (_ message: String, _ isFailure: Bool) -> Void

    private struct State {
        var isUp = true
        var lastFailure: SessionStoreError?
        /// The background probe, while one runs.
        var probing: RepeatingTimer?
        /// Whether a probe is running on the background pool now.
        var probeRunning = false
    }

    private let state = Mutex(State())
    /// The store as the log names it ("sqlite:data/sessions.sqlite").
    public let name: String
    /// The pause between background probes while the store is down.
    public let probeInterval: Duration
    private let log: Log?

    public init(name: String, probeInterval: Duration, log: Log?) {
        self.name = name
        self.probeInterval = probeInterval
        self.log = log
    }

    /// Whether the last outcome was a success (true until something fails).
    public var isUp: Bool { state.withLock { $0.isUp } }

    /// The failure that took the store down, while it is down.
    public var lastFailure: SessionStoreError? { state.withLock { $0.isUp ? nil : $0.lastFailure } }

    /// Notes a success: logs the recovery if the store was down.
    public func recordSuccess() {
        let recovered = state.withLock { state -> Bool in
            defer { state.isUp = true }
            return !state.isUp
        }
        if recovered { log?("session store \(name) works again", false) }
    }

    /// Stored sessions whose bytes could not be decoded since start: each counts as absent
    /// (the visitor gets a fresh session).
    public let undecodable = ErrorEpisode()

    /// Notes a session that could not be decoded: counted, and logged once per episode.
    public func recordUndecodable(_ error: SessionStoreError) {
        guard let count = undecodable.record() else { return }
        log?(
            "session store \(name): \(count) stored session(s) could not be decoded and count as absent: \(error.reason)",
            true)
    }

    /// Notes a failure: when the store was up, logs it and starts `probe` in the
    /// background, every `probeInterval` until it returns true (then the store is up).
    public func recordFailure(_ error: SessionStoreError, probe: @escaping @Sendable () -> Bool) {
        let wentDown = state.withLock { state -> Bool in
            let wentDown = state.isUp
            state.isUp = false
            state.lastFailure = error
            if state.probing == nil { state.probing = probing(probe) }
            return wentDown
        }
        if wentDown { log?("session store \(name) failing: \(error.reason)", true) }
    }

    /// Probes every `probeInterval`, on the background pool (a probe blocks), one probe at
    /// a time, until a probe or a request's success ends the outage.
    private func probing(_ probe: @escaping @Sendable () -> Bool) -> RepeatingTimer {
        RepeatingTimer(every: probeInterval) { [weak self] in
            guard let self else { return false }
            let start = state.withLock { state in
                defer { state.probeRunning = true }
                return !state.probeRunning
            }
            guard start else { return true }
            let submitted = BlockingPool.background.submit {
                // A request's success may have ended the outage already: then stop probing.
                let succeeded = !self.isUp && probe()
                self.endProbing(ifUp: succeeded)
            }
            if !submitted { state.withLock { $0.probeRunning = false } }
            return true
        }
    }

    /// After a probe: when it succeeded, or a request's success came first, the store is up
    /// and the probing stops.
    private func endProbing(ifUp succeeded: Bool) {
        let recovered = state.withLock { state -> Bool? in
            state.probeRunning = false
            guard succeeded || state.isUp else { return nil }
            state.probing?.cancel()
            state.probing = nil
            defer { state.isUp = true }
            return !state.isUp
        }
        if recovered == true { log?("session store \(name) works again", false) }
    }
}
