// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The one pool for work that blocks: a query of the app's own database, a session store
/// call that waits on a file or the network, an observer hook. Async code awaits it, so
/// no engine loop ever waits: the loop serves other connections, and the task goes on
/// (on its loop) once the work is done. Work runs on a few threads of its own (lanes, see
/// `LaneQueue`): work with one key runs in the order it was given, one at a time; a full
/// lane refuses more at once (`BlockingPool.Busy`, answered 503) instead of queueing
/// without bound.
///
/// ```swift
/// let rows = try await context.blocking { try database.query("SELECT title FROM notes") }
/// ```
public final class BlockingPool: Sendable {
    /// The pool's lanes are full: the work was not run.
    public struct Busy: Error, Sendable, CustomStringConvertible {
        public var description: String { "the blocking pool is full" }
    }

    /// The pool for the library's own background work that belongs to no app: a session
    /// store's health probe while the store is down. Its two lanes start when first used.
    package static let background = BlockingPool(lanes: 2, capacity: 64)

    private let lanes: LaneQueue
    /// The lane the next work without a key goes to, in turn.
    private let turn = Atomic<Int>(0)

    /// `lanes` threads (started when first used), each holding at most `capacity` jobs
    /// not yet started.
    public init(lanes: Int = 4, capacity: Int = 256) {
        self.lanes = LaneQueue(lanes: lanes, capacity: capacity)
    }

    /// Runs `work` on the lane of `key` (work with one key runs in order), or without a
    /// key on the lanes in turn, and returns its result.
    public func run<Result: Sendable>(key: Int? = nil, _ work: @escaping @Sendable () throws -> Result) async throws
        -> Result
    {
        let key = key ?? nextKey()
        return try await withUnsafeThrowingContinuation { continuation in
            let added = lanes.add(key: key) {
                continuation.resume(with: Swift.Result { try work() })
            }
            if !added { continuation.resume(throwing: Busy()) }
        }
    }

    /// `run` for work that cannot fail.
    public func run<Result: Sendable>(key: Int? = nil, _ work: @escaping @Sendable () -> Result) async throws -> Result
    {
        let key = key ?? nextKey()
        return try await withUnsafeThrowingContinuation { continuation in
            let added = lanes.add(key: key) { continuation.resume(returning: work()) }
            if !added { continuation.resume(throwing: Busy()) }
        }
    }

    /// `run` for an app's own work (`context.blocking`), which stops waiting when its task
    /// is cancelled: work its lane has not reached yet is never run, and work already
    /// running finishes on its thread while the caller gets `CancellationError` at once
    /// (a blocking call cannot be stopped from outside). The engine's own store calls use
    /// `run`, which always waits: a write that started is seen through.
    public func runCancellable<Result: Sendable>(
        key: Int? = nil, _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try Task.checkCancellation()
        let key = key ?? nextKey()
        let job = CancellableJob<Result>()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard job.attach(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let added = lanes.add(key: key) {
                    guard job.start() else { return }
                    job.finish(Swift.Result { try work() })
                }
                if !added { job.finish(.failure(Busy())) }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// Queues `work` to run on the lanes in turn, without waiting for it (a timer's tick
    /// hands its blocking work over this way); false, and `work` not run, when the lane is
    /// full.
    @discardableResult
    package func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        lanes.add(key: nextKey(), work)
    }

    private func nextKey() -> Int { turn.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max }

    /// Jobs the pool has taken since start (`/metrics`).
    public var accepted: Int { lanes.accepted }

    /// Jobs waiting or running now.
    public var waiting: Int { lanes.waiting }

    /// Waits, for at most `timeout`, until every job given so far has run; false when
    /// some were still waiting or running then.
    public func finish(within timeout: Duration) -> Bool { lanes.finish(within: timeout) }
}
