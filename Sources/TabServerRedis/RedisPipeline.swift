// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// Commands from many threads sent over one connection in pipelines: whatever is queued
/// when the connection is free goes out in one write, and the replies come back in one
/// read (or a few), so a hundred callers cost one round trip instead of a hundred, and
/// none of them waits on the socket: each hears its reply in `done`, on the pipeline's
/// own thread (keep it short). Reconnects on the next batch after a failure, which fails
/// the batch it happened in.
///
/// ```swift
/// let pipeline = RedisPipeline(configuration: config)
/// pipeline.send([Array("HGET".utf8), key, Array("rev".utf8)]) { result in … }
/// ```
public final class RedisPipeline: Sendable {
    /// The queue and the thread's state, apart from the pipeline so the thread ends when
    /// the pipeline is released.
    private final class Worker: Sendable {
        typealias Done = @Sendable (Result<RedisReply, RedisError>) -> Void
        struct Queue {
            var commands: [(command: [[UInt8]], done: Done)] = []
            var started = false
            var stopped = false
        }

        let queue = Mutex(Queue())
        let wake = DispatchSemaphore(value: 0)
        let configuration: RedisConfiguration

        init(configuration: RedisConfiguration) { self.configuration = configuration }

        func run() {
            var connection: RedisConnection?
            while true {
                _ = wake.wait(timeout: .now() + .milliseconds(250))
                let (batch, stopped) = queue.withLock { queue in
                    defer { queue.commands = [] }
                    return (queue.commands, queue.stopped)
                }
                if batch.isEmpty {
                    if stopped { return }
                    continue
                }
                do throws(RedisError) {
                    if connection == nil { connection = try RedisConnection(configuration: configuration) }
                    let replies = try connection!.pipeline(batch.map(\.command))
                    for (item, reply) in zip(batch, replies) { item.done(.success(reply)) }
                } catch {
                    connection = nil
                    for item in batch { item.done(.failure(error)) }
                }
            }
        }
    }

    private let worker: Worker

    /// A pipeline to the server `configuration` names; it connects on first use.
    public init(configuration: RedisConfiguration) {
        worker = Worker(configuration: configuration)
    }

    deinit {
        worker.queue.withLock { $0.stopped = true }
        worker.wake.signal()
    }

    /// Queues `command`; `done` hears its reply (or the failure) on the pipeline's thread.
    public func send(_ command: [[UInt8]], done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void) {
        let (first, start) = worker.queue.withLock { queue -> (Bool, Bool) in
            queue.commands.append((command, done))
            defer { queue.started = true }
            return (queue.commands.count == 1, !queue.started)
        }
        if start {
            let worker = worker
            DispatchQueue(label: "tabserver.redis-pipeline").async { worker.run() }
        }
        if first { worker.wake.signal() }
    }
}
