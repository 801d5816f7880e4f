// SPDX-License-Identifier: Apache-2.0
/// Which primary serves each of a Redis Cluster's 16384 slots, read from `CLUSTER SLOTS`.
///
/// ```swift
/// let map = try RedisSlotMap(reply, askedNode: "127.0.0.1:7000")
/// map.shards[map.shardIndex(forSlot: 12_539)!].primary   // "127.0.0.1:7002"
/// ```
public struct RedisSlotMap: Sendable, Hashable {
    /// One primary, its replicas and the slot ranges it serves.
    public struct Shard: Sendable, Hashable {
        /// The primary's address.
        public var primary: RedisClusterSeeds.Address
        /// Its replicas' addresses, as the cluster lists them.
        public var replicas: [RedisClusterSeeds.Address]
        /// The slot ranges it serves, in order.
        public var ranges: [ClosedRange<Int>]

        /// "0-5460,10923" as `CLUSTER SLOTS` ranges are usually written.
        public var slotsText: String {
            ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
                .joined(separator: ",")
        }
    }

    /// The shards, by their primary's address.
    public let shards: [Shard]
    /// For each slot the index of its shard in `shards`, or `unassigned`.
    private let owner: [UInt16]
    private static let unassigned = UInt16.max

    /// The map a `CLUSTER SLOTS` reply describes; `askedNode` stands in for an empty host
    /// (a node that does not know its own address). Throws `.protocolError` for a reply
    /// of another shape.
    public init(_ reply: RedisReply, askedNode: RedisClusterSeeds.Address) throws(RedisError) {
        func malformed(_ detail: String) -> RedisError {
            RedisError(.protocolError, endpoint: askedNode.endpoint, "CLUSTER SLOTS: \(detail)")
        }
        guard let entries = reply.array else {
            throw malformed(reply.errorMessage ?? "not an array: \(reply)")
        }
        var shards: [Shard] = []
        var owner = [UInt16](repeating: Self.unassigned, count: RedisSlot.count)
        for entry in entries {
            guard let fields = entry.array, fields.count >= 3, let first = fields[0].integer,
                let last = fields[1].integer, 0 <= first, first <= last, last < RedisSlot.count
            else { throw malformed("an entry is not [first slot, last slot, primary, replicas…]") }
            let nodes = try fields[2...].map { field throws(RedisError) -> RedisClusterSeeds.Address in
                guard let parts = field.array, parts.count >= 2, let host = parts[0].string,
                    let port = parts[1].integer,
                    (1...65_535).contains(port)
                else { throw malformed("a node is not [host, port, …]") }
                return RedisClusterSeeds.Address(host: host.isEmpty ? askedNode.host : host, port: port)
            }
            let index: Int
            if let known = shards.firstIndex(where: { $0.primary == nodes[0] }) {
                index = known
            } else {
                index = shards.count
                shards.append(Shard(primary: nodes[0], replicas: Array(nodes.dropFirst()), ranges: []))
            }
            shards[index].ranges.append(first...last)
            for slot in first...last { owner[slot] = UInt16(index) }
        }
        for index in shards.indices { shards[index].ranges.sort { $0.lowerBound < $1.lowerBound } }
        self.shards = shards
        self.owner = owner
    }

    /// The index in `shards` of the shard serving `slot`, nil when no primary serves it.
    public func shardIndex(forSlot slot: Int) -> Int? {
        let index = owner[slot]
        return index == Self.unassigned ? nil : Int(index)
    }

    /// Slots no primary serves.
    public var unassignedSlots: Int { owner.reduce(0) { $0 + ($1 == Self.unassigned ? 1 : 0) } }

    /// Whether some primary here was a replica in `earlier`: a failover happened between
    /// the two (the promoted replica may lack writes its primary acknowledged). Slots
    /// moved between primaries (resharding) are not one: a migration moves keys whole.
    func promotesReplica(of earlier: RedisSlotMap) -> Bool {
        let replicas = Set(earlier.shards.flatMap(\.replicas))
        return shards.contains { replicas.contains($0.primary) }
    }
}
