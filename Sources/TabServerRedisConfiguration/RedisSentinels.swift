// SPDX-License-Identifier: Apache-2.0
/// The Redis Sentinel processes that watch a master, and the name they know it by: a
/// client given these asks the sentinels where the master is instead of being told.
///
/// ```swift
/// let sentinels = RedisSentinels(
///     addresses: [.init(host: "10.0.0.11"), .init(host: "10.0.0.12"), .init(host: "10.0.0.13")],
///     masterName: "sessions")
/// let configuration = RedisConfiguration(sentinels: sentinels)
/// ```
public struct RedisSentinels: Sendable, Hashable {
    /// Where one sentinel listens.
    public struct Address: Sendable, Hashable {
        /// Host name or IP address.
        public var host: String
        /// TCP port (26379, Sentinel's own, unless told otherwise).
        public var port: Int

        public init(host: String, port: Int = RedisSentinels.defaultPort) {
            self.host = host
            self.port = port
        }

        /// "host:port" (IPv6 addresses in brackets).
        public var endpoint: String {
            host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// The port a sentinel listens on unless told otherwise.
    public static let defaultPort = 26379

    /// The sentinels, asked in this order (the one that answered last goes first).
    public var addresses: [Address]
    /// The master's name in the sentinels' `sentinel monitor NAME …` line.
    public var masterName: String

    public init(addresses: [Address], masterName: String) {
        self.addresses = addresses
        self.masterName = masterName
    }
}
