// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// The pipeline of a cluster client: one thread for all the primaries. Whatever is
/// queued when the thread is free is split by slot, written to each primary's connection
/// (one write each, `WAIT` last where the group holds a write that needs replicas), and
/// then the replies are read from each, so a batch costs one wake and one round trip
/// however many shards it touches. A `MOVED` or `ASK` reply is followed right there,
/// before the replies after it are handed out, so one visitor's writes keep their order.
///
/// A primary that cannot be reached fails its own group only (its client backs off, and
/// while it does its commands fail at once); one that hangs holds the batch up to the
/// command timeout once, then backs off the same way.
final class RedisClusterPipeline: Sendable {
    /// The queue and the thread's state.
    ///
    /// `@unchecked Sendable` is safe: `connections` is used only by `runBatches`, which runs
    /// on the worker's thread alone (one run at a time); the queue is under its lock.
    final class Worker: @unchecked Sendable {
        typealias Done = @Sendable (Result<RedisReply, RedisError>) -> Void
        struct Item {
            var command: [[UInt8]]
            var replicated: Bool
            var done: Done
        }
        struct Queue {
            var items: [Item] = []
            var running = false
            var started = false
            var stopped = false
        }
        /// One primary's share of a batch.
        struct Group {
            var route: RedisClusterRouter.Route
            var items: [Item] = []
            var connection: RedisConnection?
            var wait: [[UInt8]]?
        }

        let queue = Mutex(Queue())
        let thread = WorkerThread()
        let router: RedisClusterRouter
        /// Open connections by primary ("host:port").
        private var connections: [String: RedisConnection] = [:]

        init(router: RedisClusterRouter) { self.router = router }

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
                send(batch)
            }
        }

        private func send(_ batch: [Item]) {
            var groups: [Group] = []
            var groupOfRoute: [ObjectIdentifier: Int] = [:]
            for item in batch {
                let route: RedisClusterRouter.Route
                do throws(RedisError) {
                    route = try router.route(forSlot: RedisSlot.routingKey(of: item.command).map(RedisSlot.of))
                } catch {
                    item.done(.failure(error))
                    continue
                }
                if route.client.isBackingOff {
                    let endpoint = route.client.configuration.endpoint
                    item.done(.failure(RedisError(.unavailable, endpoint: endpoint, "backing off")))
                    continue
                }
                let index =
                    groupOfRoute[ObjectIdentifier(route)]
                    ?? {
                        groups.append(Group(route: route))
                        groupOfRoute[ObjectIdentifier(route)] = groups.count - 1
                        return groups.count - 1
                    }()
                groups[index].items.append(item)
            }
            // Every group's write first, then every group's replies: one round trip in all.
            for index in groups.indices {
                do throws(RedisError) {
                    let connection = try connection(for: groups[index].route)
                    let wait =
                        groups[index].items.contains(where: \.replicated) ? groups[index].route.client.waitCommand : nil
                    try connection.sendPipeline(groups[index].items.map(\.command) + (wait.map { [$0] } ?? []))
                    groups[index].connection = connection
                    groups[index].wait = wait
                } catch {
                    fail(groups[index], error)
                }
            }
            for group in groups {
                guard let connection = group.connection else { continue }
                do throws(RedisError) {
                    let replies = try connection.readReplies(group.items.count + (group.wait == nil ? 0 : 1))
                    deliver(group, replies, endpoint: connection.endpoint)
                } catch {
                    fail(group, error)
                }
            }
        }

        private func connection(for route: RedisClusterRouter.Route) throws(RedisError) -> RedisConnection {
            let endpoint = route.client.configuration.endpoint
            if let open = connections[endpoint], !open.isBroken { return open }
            let (connection, _) = try route.client.connect()
            connections[endpoint] = connection
            return connection
        }

        private func fail(_ group: Group, _ error: RedisError) {
            connections[group.route.client.configuration.endpoint] = nil
            group.route.client.connectionFailed(error)
            router.requestRefresh()
            for item in group.items { item.done(.failure(error)) }
        }

        private func deliver(_ group: Group, _ replies: [RedisReply], endpoint: String) {
            let client = group.route.client
            let shortfall =
                group.wait == nil ? nil : client.replicationFailure(replies[group.items.count], endpoint: endpoint)
            for (item, reply) in zip(group.items, replies) {
                if let message = reply.errorMessage, let redirection = RedisClusterRouter.Redirection(message) {
                    do throws(RedisError) {
                        item.done(.success(try router.follow(redirection, item.command, replicated: item.replicated)))
                    } catch {
                        item.done(.failure(error))
                    }
                } else if item.replicated, let shortfall, reply.errorMessage == nil {
                    item.done(.failure(shortfall))
                } else {
                    item.done(.success(reply))
                }
            }
        }
    }

    private let worker: Worker

    init(router: RedisClusterRouter) {
        worker = Worker(router: router)
    }

    deinit {
        let idle = worker.queue.withLock { queue -> Bool in
            queue.stopped = true
            return queue.started && !queue.running
        }
        if idle { worker.thread.stop() }
    }

    /// Queues `command`; `done` hears its reply (or the failure) on the pipeline's thread.
    func send(
        _ command: [[UInt8]], replicated: Bool, done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
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
