// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Finds the master that Redis Sentinel names, the way Sentinel's client guidelines
/// describe: ask the sentinels in turn (`SENTINEL get-master-addr-by-name`), connect to
/// the address the first one that knows gives, and believe it only if the server says
/// it is a master (`ROLE`): a sentinel cut off from the others may still name a master
/// that has since been demoted. The sentinel that answered is asked first next time.
///
/// ```swift
/// let locator = RedisMasterLocator(configuration: configuration, sentinels: sentinels)
/// let (connection, master) = try locator.locate()   // master.endpoint: "10.0.0.21:6379"
/// ```
final class RedisMasterLocator: Sendable {
    private let configuration: RedisConfiguration
    private let masterName: String
    /// The sentinels in the order to ask them.
    private let order: Mutex<[RedisSentinels.Address]>

    init(configuration: RedisConfiguration, sentinels: RedisSentinels) {
        self.configuration = configuration
        masterName = sentinels.masterName
        order = Mutex(sentinels.addresses)
    }

    /// A connection to the master, set up like any other (`SELECT`), and the
    /// configuration that reaches it. Each sentinel and each server it names gets the
    /// connect and command timeouts, so this takes at most about twice their sum per
    /// sentinel. Throws `.connectionFailed` naming what each sentinel said.
    func locate() throws(RedisError) -> (RedisConnection, RedisConfiguration) {
        let sentinels = order.withLock { $0 }
        var problems: [String] = []
        for sentinel in sentinels {
            do throws(RedisError) {
                let master = try askSentinel(sentinel)
                let connection = try RedisConnection(configuration: master)
                let role = try connection.command(["ROLE"])
                guard let kind = role.array?.first?.string, kind == "master" else {
                    problems.append(
                        "\(sentinel.endpoint) names \(master.endpoint), which answers ROLE \(role.array?.first?.string ?? "\(role)")"
                    )
                    continue
                }
                moveToFront(sentinel)
                return (connection, master)
            } catch {
                problems.append(error.reason)
            }
        }
        throw RedisError(
            .connectionFailed,
            "redis-sentinel: no sentinel named a working master for '\(masterName)': \(problems.joined(separator: "; "))"
        )
    }

    /// What `sentinel` says the master's address is.
    private func askSentinel(_ sentinel: RedisSentinels.Address) throws(RedisError) -> RedisConfiguration {
        // A sentinel has no databases: no SELECT on this connection.
        var sentinelConfiguration = configuration.server(host: sentinel.host, port: sentinel.port)
        sentinelConfiguration.database = 0
        let connection = try RedisConnection(configuration: sentinelConfiguration)
        let reply = try connection.command(["SENTINEL", "get-master-addr-by-name", masterName])
        guard let parts = reply.array, parts.count == 2, let host = parts[0].string, let port = parts[1].integer,
            !host.isEmpty, (1...65_535).contains(port)
        else {
            let said = reply.errorMessage ?? (reply.isNull ? "no master of that name" : "\(reply)")
            throw RedisError(.connectionFailed, endpoint: sentinel.endpoint, "sentinel: \(said)")
        }
        return configuration.server(host: host, port: port)
    }

    private func moveToFront(_ sentinel: RedisSentinels.Address) {
        order.withLock { order in
            guard let index = order.firstIndex(of: sentinel), index > 0 else { return }
            order.remove(at: index)
            order.insert(sentinel, at: 0)
        }
    }
}
