// SPDX-License-Identifier: Apache-2.0
/// The check before an app serves from a cluster.
extension RedisClusterRouter {
    /// Succeeds when a seed node answers, says `cluster_state:ok`, and the slot map it
    /// gives covers every slot. Otherwise throws `.connectionFailed` saying which: no
    /// seed answered (and what each said), a seed is not a cluster node, or the cluster
    /// is not ok (with its assigned and failing slot counts).
    func verify() throws(RedisError) {
        var unreachable: [String] = []
        for seed in seeds {
            let info: RedisReply
            do throws(RedisError) {
                let connection = try RedisConnection(
                    configuration: configuration.server(host: seed.host, port: seed.port))
                info = try connection.command(["CLUSTER", "INFO"])
            } catch {
                unreachable.append(error.reason)
                continue
            }
            guard let text = info.string else {
                let said = info.errorMessage ?? "\(info)"
                throw RedisError(
                    .connectionFailed,
                    "redis-cluster \(configuration.url): \(seed.endpoint) is not a Redis Cluster node (CLUSTER INFO: \(said))"
                )
            }
            let fields = Self.infoFields(text)
            guard fields["cluster_state"] == "ok" else {
                let assigned = fields["cluster_slots_assigned"] ?? "?"
                let failing = fields["cluster_slots_fail"] ?? "?"
                throw RedisError(
                    .connectionFailed,
                    "redis-cluster \(configuration.url): the cluster is not serving: \(seed.endpoint) says cluster_state:\(fields["cluster_state"] ?? "?") (slots assigned \(assigned) of \(RedisSlot.count), failing \(failing))"
                )
            }
            let map = try refresh().map
            guard map.unassignedSlots == 0 else {
                throw RedisError(
                    .connectionFailed,
                    "redis-cluster \(configuration.url): \(map.unassignedSlots) of \(RedisSlot.count) slots have no primary"
                )
            }
            return
        }
        throw RedisError(
            .connectionFailed,
            "redis-cluster \(configuration.url): no node of the cluster answered: \(unreachable.joined(separator: "; "))"
        )
    }

    /// `name:value` lines of an `INFO`-style text.
    static func infoFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...].filter { !$0.isWhitespace })
        }
        return fields
    }
}
