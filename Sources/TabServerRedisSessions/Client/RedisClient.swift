// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A thread-safe Redis client for synchronous callers (the work lanes, probes): a pool of
/// `RedisConnection`s, a time bound on every call, and backoff after failures.
///
/// Each call borrows an idle connection (or opens one), so concurrent callers never
/// share a connection. When a connection fails — refused, timed out, closed — the
/// client drops its idle connections and backs off: for 50 ms, doubling on each further
/// failure up to 2 s. While it backs off, calls fail at once with `.unavailable` rather
/// than wait; the first call after the pause tries the server again (only that one:
/// the others still fail fast until it answers), and a success ends the backoff. So
/// the client recovers by itself when the server comes back, with no new object.
///
/// With `configuration.sentinels` the server is the master that Redis Sentinel names:
/// asked on the first connection, and again after every failure (a refused or lost
/// connection, a timeout, a `READONLY` answer from a demoted master, a write the
/// replicas did not acknowledge), so the client follows a failover by itself. Pooled
/// connections to a master that is no longer the one named are closed, not reused.
///
/// With `configuration.cluster` the server is a Redis Cluster: each command goes to the
/// primary of its key's slot, through a client of this kind for that primary alone
/// (`MOVED` and `ASK` are followed; see `RedisClusterRouter`).
///
/// ```swift
/// let client = try RedisClient(url: "redis://127.0.0.1:6379/0")
/// _ = try client.command(["SET", "greeting", "hello"])
/// try client.ping()
/// ```
public final class RedisClient: Sendable {
    /// Where and how this client connects.
    public let configuration: RedisConfiguration
    private let state = Mutex(State())

    private struct State {
        /// Open connections nobody is using, newest last.
        var idle: [Pooled] = []
        /// Failures since the last success; sets the length of the backoff.
        var consecutiveFailures = 0
        /// While set, calls before this instant fail fast.
        var retryAt: ContinuousClock.Instant?
        /// Whether one caller is trying the server again after a backoff.
        var probing = false
        /// The failure that started the current backoff, for the fail-fast message.
        var lastFailure: RedisError?
        /// Where new connections go: `configuration` itself, or in Sentinel mode the
        /// master the sentinels last named (nil until asked, and again after a failure).
        var master: RedisConfiguration?
        /// Counts changes of `master`: a connection opened for an older one is not pooled.
        var generation = 0
    }

    /// A connection while it moves between the pool and one caller.
    ///
    /// `@unchecked Sendable` is safe because ownership is exclusive at every moment: an
    /// idle connection is reachable only through `state`, under its lock; `checkout`
    /// removes it from `idle` before handing it to exactly one caller, which uses it on
    /// its own thread and gives it back through `checkin` (or drops it). No two threads
    /// ever hold the same connection, and `RedisConnection` has no shared global state.
    private final class Pooled: @unchecked Sendable {
        let connection: RedisConnection
        /// `State.generation` when it was opened.
        let generation: Int
        init(_ connection: RedisConnection, generation: Int) {
            self.connection = connection
            self.generation = generation
        }
    }

    /// What a caller gets from the pool.
    private enum Checkout: Sendable {
        case reuse(Pooled)
        case open(probe: Bool)
        case failFast(RedisError)
    }

    /// Asks the sentinels, in Sentinel mode.
    private let locator: RedisMasterLocator?
    /// Routes by slot, in cluster mode.
    let cluster: RedisClusterRouter?

    /// A client for `configuration`. Connects lazily, on the first call.
    public init(configuration: RedisConfiguration) {
        self.configuration = configuration
        cluster = configuration.cluster.map { RedisClusterRouter(configuration: configuration, seeds: $0) }
        if let sentinels = configuration.sentinels {
            locator = RedisMasterLocator(configuration: configuration, sentinels: sentinels)
        } else {
            locator = nil
            state.withLock { $0.master = configuration }
        }
    }

    /// A client for a `redis://host[:port][/database]` URL with the default timeouts.
    public convenience init(url: String) throws(RedisError) {
        self.init(configuration: try RedisConfiguration(url: url))
    }

    /// Runs one command and returns its reply (an error reply is returned, not thrown).
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        if let cluster { return try cluster.run(arguments.map { Array($0.utf8) }, replicated: false) }
        return try withConnection { connection throws(RedisError) in try connection.command(arguments) }
    }

    /// Runs one command with binary-safe arguments and returns its reply.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        if let cluster { return try cluster.run(arguments, replicated: false) }
        return try withConnection { connection throws(RedisError) in try connection.command(arguments) }
    }

    /// Runs `script` with `EVALSHA`, falling back to `EVAL` on the same connection when
    /// the server answers `NOSCRIPT`: one round trip once the script is cached.
    /// `replicated`: a write that must reach `configuration.waitReplicas` replicas (see
    /// `command(_:replicated:)`).
    public func evaluate(
        _ script: RedisScript, keys: [[UInt8]], arguments: [[UInt8]], replicated: Bool = false
    ) throws(RedisError) -> RedisReply {
        let tail = [Array(String(keys.count).utf8)] + keys + arguments
        if let cluster { return try cluster.evaluate(script, tail: tail, replicated: replicated) }
        return try withConnection { connection throws(RedisError) in
            let reply = try replicatedCommand(
                [Array("EVALSHA".utf8), Array(script.sha1.utf8)] + tail, on: connection, replicated: replicated)
            guard let message = reply.errorMessage, message.hasPrefix("NOSCRIPT") else { return reply }
            return try replicatedCommand(
                [Array("EVAL".utf8), Array(script.source.utf8)] + tail, on: connection, replicated: replicated)
        }
    }

    /// Succeeds when the server answers `PING` within the timeouts.
    public func ping() throws(RedisError) {
        let reply = try command(["PING"])
        guard reply == .status("PONG") else {
            throw RedisError(.protocolError, endpoint: configuration.endpoint, "PING answered \(reply)")
        }
    }

    /// Tries the server now, whatever the backoff: a new connection and a `PING` (in
    /// Sentinel mode to the master the sentinels name now). A success ends the backoff
    /// (the connection joins the pool); a failure changes nothing. For a background
    /// prober, so that no request has to be the one that waits on a server that may be
    /// hung.
    public func probe() throws(RedisError) {
        if let cluster { return try cluster.probe() }
        let (connection, generation) = locator == nil ? try connect() : try locateMaster()
        let reply = try connection.command(["PING"])
        guard reply == .status("PONG") else {
            throw RedisError(.protocolError, endpoint: connection.endpoint, "PING answered \(reply)")
        }
        checkin(connection, generation: generation)
    }

    /// Where connections go now: the configured server, or the master the sentinels
    /// named last (nil in Sentinel mode until they are asked, and after a failure).
    public var currentServer: RedisConfiguration? {
        state.withLock { $0.master }
    }

    /// Changes whenever the client forgets or learns where the master is (Sentinel
    /// mode): a connection from `connect()` with an older generation may be talking to
    /// a master that is no more.
    public var generation: Int {
        if let cluster { return cluster.epoch }
        return state.withLock { $0.generation }
    }

    /// A new connection, outside the pool, to the server: the configured one, or in
    /// Sentinel mode the master the sentinels named last (asking them first when that is
    /// not known). For callers that keep a connection of their own (a pipeline, a
    /// subscriber); they report its failure with `connectionFailed(_:)`.
    public func connect() throws(RedisError) -> (connection: RedisConnection, generation: Int) {
        let (known, generation) = state.withLock { ($0.master, $0.generation) }
        if let known { return (try RedisConnection(configuration: known), generation) }
        return try locateMaster()
    }

    /// Asks the sentinels for the master, and remembers it for the next connections.
    private func locateMaster() throws(RedisError) -> (connection: RedisConnection, generation: Int) {
        guard let locator else { return try connect() }
        let (connection, master) = try locator.locate()
        let generation = state.withLock { state in
            if state.master != master {
                state.master = master
                state.generation += 1
            }
            return state.generation
        }
        return (connection, generation)
    }

    /// Notes that a connection of the caller's own (from `connect()`) failed: the client
    /// backs off, as after a failure of its own, and in Sentinel mode asks the sentinels
    /// again on the next connection.
    public func connectionFailed(_ error: RedisError) {
        recordFailure(error, probe: false)
    }

    /// In Sentinel mode: forgets the master, so that the next connection asks the
    /// sentinels, and closes the pooled connections to it. Nothing in plain mode.
    public func forgetMaster() {
        guard locator != nil else { return }
        let stale: [Pooled] = state.withLock { state in
            if state.master != nil {
                state.master = nil
                state.generation += 1
            }
            defer { state.idle.removeAll() }
            return state.idle
        }
        _ = stale  // closed here, outside the lock
    }

    /// Whether the last attempt failed and nothing has succeeded since: calls fail fast
    /// until the pause is over, then one of them tries the server again.
    public var isBackingOff: Bool {
        if let cluster { return cluster.anyPrimaryBackingOff }
        return state.withLock { $0.retryAt != nil }
    }

    /// Runs `body` with a connection of its own: an idle one from the pool or a new one.
    /// If the connection fails during `body`, the client starts backing off; otherwise
    /// the connection goes back to the pool. Keep `body` short: it holds a connection.
    public func withConnection<Value>(_ body: (RedisConnection) throws(RedisError) -> Value) throws(RedisError)
        -> Value
    {
        let connection: RedisConnection
        let generation: Int
        let isProbe: Bool
        switch checkout() {
        case .failFast(let error):
            throw error
        case .reuse(let pooled):
            connection = pooled.connection
            generation = pooled.generation
            isProbe = false
        case .open(let probe):
            isProbe = probe
            do {
                (connection, generation) = try connect()
            } catch {
                recordFailure(error, probe: probe)
                throw error
            }
        }

        let result: Result<Value, RedisError>
        do {
            result = .success(try body(connection))
        } catch {
            result = .failure(error)
        }
        if connection.isBroken {
            if case .failure(let error) = result {
                recordFailure(error, probe: isProbe)
            } else {
                recordFailure(
                    RedisError(.connectionLost, endpoint: connection.endpoint, "connection failed"), probe: isProbe)
            }
        } else if case .failure(let error) = result, error.kind == .notReplicated, locator != nil {
            // The master's replicas are away: perhaps a failover has promoted one of them.
            forgetMaster()
            if isProbe { state.withLock { $0.probing = false } }
        } else {
            checkin(connection, generation: generation)
        }
        return try result.get()
    }

    private func checkout() -> Checkout {
        let now = ContinuousClock.now
        // In Sentinel mode the master may not be known: then the failure names the sentinels.
        let endpoint = configuration.sentinels == nil ? configuration.endpoint : configuration.url
        // Connections found dead are closed when this returns, after the lock is released.
        var dead: [Pooled] = []
        let decision = state.withLock { state -> Checkout in
            if let retryAt = state.retryAt {
                if now < retryAt || state.probing {
                    let wait = now < retryAt ? " for \((retryAt - now).milliseconds) ms more" : ""
                    let cause = state.lastFailure.map { " after: \(Self.detail(of: $0, endpoint: endpoint))" } ?? ""
                    return .failFast(RedisError(.unavailable, endpoint: endpoint, "backing off\(wait)\(cause)"))
                }
                state.probing = true
                return .open(probe: true)
            }
            while let candidate = state.idle.popLast() {
                if candidate.generation == state.generation, candidate.connection.isReusable(now: now) {
                    return .reuse(candidate)
                }
                dead.append(candidate)
            }
            return .open(probe: false)
        }
        return decision
    }

    private func checkin(_ connection: RedisConnection, generation: Int) {
        let limit = configuration.maxIdleConnections
        connection.lastUsed = .now
        let pooled = Pooled(connection, generation: generation)
        let surplus: Pooled? = state.withLock { state in
            // A working connection proves the server is reachable.
            state.consecutiveFailures = 0
            state.retryAt = nil
            state.probing = false
            state.lastFailure = nil
            // A connection to a master the sentinels no longer name is closed.
            guard state.idle.count < limit, generation == state.generation else { return pooled }
            state.idle.append(pooled)
            return nil
        }
        _ = surplus  // closed here, outside the lock
    }

    private func recordFailure(_ error: RedisError, probe: Bool) {
        let now = ContinuousClock.now
        let initial = configuration.initialBackoff
        let maximum = configuration.maxBackoff
        let stale: [Pooled] = state.withLock { state in
            if probe { state.probing = false }
            // Callers that were already in flight when the server went away fail too; only
            // the first of them (or a failed probe) lengthens the backoff.
            if probe || state.retryAt == nil {
                state.consecutiveFailures += 1
                state.retryAt = now + Self.backoff(after: state.consecutiveFailures, initial: initial, maximum: maximum)
                state.lastFailure = error
            }
            let stale = state.idle
            state.idle.removeAll()
            // In Sentinel mode the next connection asks the sentinels where the master is.
            if locator != nil, state.master != nil {
                state.master = nil
                state.generation += 1
            }
            return stale
        }
        _ = stale  // idle connections to a failed server are closed, outside the lock
    }

    /// A failure's reason without its "redis host:port: " prefix, to quote it in another.
    private static func detail(of error: RedisError, endpoint: String) -> String {
        let prefix = "redis \(endpoint): "
        return error.reason.hasPrefix(prefix) ? String(error.reason.dropFirst(prefix.count)) : error.reason
    }

    /// `initial` doubled for each failure after the first, at most `maximum`.
    static func backoff(after failures: Int, initial: Duration, maximum: Duration) -> Duration {
        var delay = initial
        for _ in 1..<max(1, failures) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
