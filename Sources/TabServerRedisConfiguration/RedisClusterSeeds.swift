// SPDX-License-Identifier: Apache-2.0
/// The nodes of a Redis Cluster that a client asks first for the cluster's slot map
/// (`CLUSTER SLOTS`): any few of its nodes, primaries or replicas. From then on the
/// client talks to the primaries the map names, and asks again whenever a node answers
/// `MOVED` or the topology changes.
///
/// ```swift
/// let seeds = RedisClusterSeeds(nodes: [.init(host: "10.0.0.21"), .init(host: "10.0.0.22")])
/// let configuration = RedisConfiguration(cluster: seeds)
/// ```
public struct RedisClusterSeeds: Sendable, Hashable {
    /// Where one node listens (host and port; 6379 unless told otherwise).
    public typealias Address = RedisSentinels.Address

    /// The port a cluster node listens on unless told otherwise.
    public static let defaultPort = 6379

    /// The nodes to ask for the slot map, in this order.
    public var nodes: [Address]

    public init(nodes: [Address]) {
        self.nodes = nodes
    }
}
