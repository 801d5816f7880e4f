// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// The transport of a `RedisClient` on a Redis Cluster: the slot map, one plain client
/// per primary (its own pool, backoff and `WAIT`; `RedisClusterPipeline` batches over
/// them all), and the rules for following the cluster as it changes.
///
/// - Each command goes to the primary of its key's slot (`RedisSlot.routingKey`).
/// - `MOVED slot host:port` (the slot lives elsewhere for good): the command is sent
///   there, and the map is read again in the background.
/// - `ASK slot host:port` (the slot is being migrated and this key has gone already):
///   the command is sent there once, after `ASKING`, in one round trip; the map stays.
/// - A primary that cannot be reached fails only the commands for its slots (its
///   client backs off and fails fast), and the map is read again: once the cluster has
///   promoted a replica, the map names it and commands go there.
/// - The map is also read once a second, so a failover or resharding elsewhere is seen
///   even before a command meets it. `epoch` counts failovers: maps in which a replica
///   of the map before has become a primary.
final class RedisClusterRouter: Sendable {
    /// The cluster's settings (timeouts, `waitReplicas`); nodes get a copy without the seeds.
    let configuration: RedisConfiguration
    let seeds: [RedisClusterSeeds.Address]

    /// What one shard's commands go through.
    final class Route: Sendable {
        let client: RedisClient
        init(client: RedisClient) { self.client = client }
    }

    /// The map and the route of each of its shards, replaced whole on each change.
    final class Routing: Sendable {
        let map: RedisSlotMap
        /// `routes[i]` serves `map.shards[i]`.
        let routes: [Route]
        init(map: RedisSlotMap, routes: [Route]) {
            self.map = map
            self.routes = routes
        }
    }

    private struct State {
        var routing: Routing?
        /// Routes by primary address, kept while the primary is in the map.
        var routes: [String: Route] = [:]
        var epoch = 0
        var lastRefreshProblem: String?
    }

    private let state = Mutex(State())
    private let refreshWanted = ThreadSignal()
    private let refresherStarted = Atomic<Bool>(false)
    /// `MOVED` and `ASK` redirections followed since start (diagnostics and tests).
    let movedFollowed = Atomic<Int>(0)
    let askedFollowed = Atomic<Int>(0)

    init(configuration: RedisConfiguration, seeds: RedisClusterSeeds) {
        self.configuration = configuration
        self.seeds = seeds.nodes
    }

    /// Changes on each failover seen (a replica promoted), not when slots move.
    var epoch: Int { state.withLock { $0.epoch } }

    /// The routing now; read from the cluster first when there is none yet.
    func routing() throws(RedisError) -> Routing {
        if let routing = state.withLock({ $0.routing }) { return routing }
        return try refresh()
    }

    /// The map as last read, if any.
    var currentMap: RedisSlotMap? { state.withLock { $0.routing?.map } }
    /// The routing as last read, if any.
    var currentRouting: Routing? { state.withLock { $0.routing } }

    /// The route for `slot` (a keyless command: the first shard's).
    func route(forSlot slot: Int?) throws(RedisError) -> Route {
        let routing = try routing()
        guard let slot else {
            guard let first = routing.routes.first else { throw noPrimary(slot: nil) }
            return first
        }
        guard let index = routing.map.shardIndex(forSlot: slot) else {
            requestRefresh()
            throw noPrimary(slot: slot)
        }
        return routing.routes[index]
    }

    private func noPrimary(slot: Int?) -> RedisError {
        RedisError(
            .unavailable,
            "redis-cluster \(configuration.url): \(slot.map { "no primary serves slot \($0)" } ?? "no primary known")")
    }

    /// The route to the node at `endpoint` ("host:port", from a redirection), made if new.
    func route(toEndpoint endpoint: String) throws(RedisError) -> Route {
        guard let colon = endpoint.lastIndex(of: ":"), let port = Int(endpoint[endpoint.index(after: colon)...]) else {
            throw RedisError(.protocolError, "redis-cluster: a redirection names \"\(endpoint)\", not host:port")
        }
        var host = String(endpoint[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let address = RedisClusterSeeds.Address(host: host, port: port)
        return state.withLock { state in
            if let known = state.routes[address.endpoint] { return known }
            let route = Route(client: RedisClient(configuration: configuration.server(host: host, port: port)))
            state.routes[address.endpoint] = route
            return route
        }
    }

    /// Reads the map now from the first node that answers (the known primaries and
    /// replicas, then the seeds) and makes it the routing.
    @discardableResult
    func refresh() throws(RedisError) -> Routing {
        startRefresher()
        var problems: [String] = []
        for node in candidates() {
            do throws(RedisError) {
                let connection = try RedisConnection(
                    configuration: configuration.server(host: node.host, port: node.port))
                let map = try RedisSlotMap(try connection.command(["CLUSTER", "SLOTS"]), askedNode: node)
                guard !map.shards.isEmpty else {
                    problems.append("\(node.endpoint): no slot is assigned")
                    continue
                }
                return install(map)
            } catch {
                problems.append(error.reason)
            }
        }
        let problem = problems.joined(separator: "; ")
        state.withLock { $0.lastRefreshProblem = problem }
        throw RedisError(.connectionFailed, "redis-cluster \(configuration.url): no node gave the slot map: \(problem)")
    }

    private func candidates() -> [RedisClusterSeeds.Address] {
        var nodes: [RedisClusterSeeds.Address] = []
        if let map = currentMap {
            for shard in map.shards { nodes.append(shard.primary) }
            for shard in map.shards { nodes += shard.replicas }
        }
        for seed in seeds where !nodes.contains(seed) { nodes.append(seed) }
        return nodes
    }

    private func install(_ map: RedisSlotMap) -> Routing {
        state.withLock { state in
            if let current = state.routing, current.map == map { return current }
            var routes: [String: Route] = [:]
            let shardRoutes = map.shards.map { shard in
                let endpoint = shard.primary.endpoint
                let route =
                    state.routes[endpoint]
                    ?? Route(
                        client: RedisClient(
                            configuration: configuration.server(host: shard.primary.host, port: shard.primary.port)))
                routes[endpoint] = route
                return route
            }
            if state.routing.map({ map.promotesReplica(of: $0.map) }) ?? false { state.epoch += 1 }
            state.routes = routes
            state.lastRefreshProblem = nil
            let routing = Routing(map: map, routes: shardRoutes)
            state.routing = routing
            return routing
        }
    }

    /// Has the background refresher read the map again soon.
    func requestRefresh() {
        startRefresher()
        refreshWanted.signal()
    }

    /// A thread that reads the map once a second, and at once when asked (at most ten
    /// times a second); it ends when the router is released.
    private func startRefresher() {
        guard !refresherStarted.exchange(true, ordering: .relaxed) else { return }
        let refreshWanted = refreshWanted
        WorkerThread.detach { [weak self] in
            while true {
                refreshWanted.wait(for: .seconds(1))
                // No strong reference outlives the read, so the router can be released.
                if self == nil { return }
                _ = try? self?.refresh()
                // Requests that came while reading are answered by this read.
                refreshWanted.drain()
                usleep(100_000)
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
