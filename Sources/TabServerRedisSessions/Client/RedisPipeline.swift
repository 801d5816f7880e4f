// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// Commands from many threads sent over one connection in pipelines: whatever is queued
/// when the connection is free goes out in one write, and the replies come back in one
/// read (or a few), so a hundred callers cost one round trip instead of a hundred, and
/// none of them waits on the socket: each hears its reply in `done`, on the pipeline's
/// own thread (keep it short). Reconnects on the next batch after a failure, which fails
/// the batch it happened in.
///
/// The connection comes from the client (in Sentinel mode: to the master the sentinels
/// name), and its failures are reported to it. When a batch holds a `replicated` write
/// and the client's configuration wants replicas, one `WAIT` ends the batch: it covers
/// every write before it on the connection, so a shortfall fails the batch's writes
/// (`.notReplicated`), not its reads.
///
/// ```swift
/// let pipeline = RedisPipeline(client: client)
/// pipeline.send([Array("HGET".utf8), key, Array("rev".utf8)]) { result in … }
/// ```
public final class RedisPipeline: Sendable {
    /// The queue and the thread's state, apart from the pipeline so the thread ends when
    /// the pipeline is released.
    ///
    /// `@unchecked Sendable` is safe: `connection` and `generation` are used only by
    /// `runBatches`, which runs on the worker's thread alone (one run at a time).
    private final class Worker: @unchecked Sendable {
        typealias Done = @Sendable (Result<RedisReply, RedisError>) -> Void
        struct Item {
            var command: [[UInt8]]
            var replicated: Bool
            var done: Done
        }
        struct Queue {
            var items: [Item] = []
            /// Whether the thread is sending batches (then new items need no wake).
            var running = false
            var started = false
            var stopped = false
        }

        let queue = Mutex(Queue())
        let thread = WorkerThread()
        let client: RedisClient
        private var connection: RedisConnection?
        private var generation = 0

        init(client: RedisClient) { self.client = client }

        /// Sends what is queued, batch after batch, until nothing is; woken by `send`
        /// when it was idle, so it never polls.
        func runBatches() {
            while true {
                let (batch, stopped) = queue.withLock { queue in
                    defer { queue.items = [] }
                    if queue.items.isEmpty { queue.running = false }
                    return (queue.items, queue.stopped)
                }
                if batch.isEmpty {
                    if stopped { thread.stop() }
                    return
                }
                do throws(RedisError) {
                    // The client has moved to another master (Sentinel): follow it.
                    if client.generation != generation { connection = nil }
                    if connection == nil { (connection, generation) = try client.connect() }
                    // After a shortfall the next batch goes wherever the client says the master is.
                    if try !send(batch, on: connection!) { connection = nil }
                } catch {
                    connection = nil
                    client.connectionFailed(error)
                    for item in batch { item.done(.failure(error)) }
                }
            }
        }

        /// One round trip for `batch`, and `WAIT` after it when its writes need replicas.
        /// In Sentinel mode a shortfall makes the client look for the master again (a
        /// failover may have promoted the replica); then this returns false.
        private func send(_ batch: [Item], on connection: RedisConnection) throws(RedisError) -> Bool {
            let wait = batch.contains(where: \.replicated) ? client.waitCommand : nil
            var commands = batch.map(\.command)
            if let wait { commands.append(wait) }
            let replies = try connection.pipeline(commands)
            var shortfall: RedisError?
            if wait != nil, let failure = client.replicationFailure(replies[batch.count], endpoint: connection.endpoint)
            {
                shortfall = failure
                client.forgetMaster()
            }
            for (item, reply) in zip(batch, replies) {
                if item.replicated, let shortfall, reply.errorMessage == nil {
                    item.done(.failure(shortfall))
                } else {
                    item.done(.success(reply))
                }
            }
            return shortfall == nil || client.configuration.sentinels == nil
        }
    }

    private let worker: Worker
    /// In cluster mode: one thread's batches split over the primaries by slot.
    private let cluster: RedisClusterPipeline?

    /// A pipeline to `client`'s server (on a cluster: one to each primary); it connects on
    /// first use.
    public init(client: RedisClient) {
        worker = Worker(client: client)
        cluster = client.cluster.map { RedisClusterPipeline(router: $0) }
    }

    deinit {
        // An idle thread ends now; a busy one after sending what it holds.
        let idle = worker.queue.withLock { queue -> Bool in
            queue.stopped = true
            return queue.started && !queue.running
        }
        if idle { worker.thread.stop() }
    }

    /// Queues `command`; `done` hears its reply (or the failure) on the pipeline's thread.
    /// `replicated`: a write that must reach the configured replicas before it succeeds.
    public func send(
        _ command: [[UInt8]], replicated: Bool = false,
        done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        if let cluster { return cluster.send(command, replicated: replicated, done: done) }
        let (wake, start) = worker.queue.withLock { queue -> (Bool, Bool) in
            queue.items.append(Worker.Item(command: command, replicated: replicated, done: done))
            defer {
                queue.started = true
                queue.running = true
            }
            return (!queue.running, !queue.started)
        }
        if start {
            let worker = worker
            worker.thread.start { worker.runBatches() }
        }
        if wake { worker.thread.wake() }
    }
}
