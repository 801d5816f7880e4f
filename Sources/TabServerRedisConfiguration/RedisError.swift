// SPDX-License-Identifier: Apache-2.0
/// Why a Redis call failed. The reason names the server (`redis 127.0.0.1:6379: …`)
/// so a log line or a 503 page says which instance to look at.
///
/// Error replies from the server (`-ERR …`) are not thrown: they arrive as
/// `RedisReply.error`, because the connection is still good after them.
public struct RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently to each.
    public enum Kind: Sendable, Hashable {
        /// The URL given to the client is not `redis://host[:port][/database]` (or its
        /// `redis-sentinel://` form).
        case invalidURL
        /// No connection could be made (refused, unreachable, connect timeout), the
        /// server refused the connection's set-up (`SELECT`), or no sentinel named a
        /// master that answers as one.
        case connectionFailed
        /// The server did not answer a command within the command timeout.
        case timedOut
        /// The connection broke during a command (closed by the server, I/O error).
        case connectionLost
        /// The client is backing off after a recent failure and did not try.
        case unavailable
        /// The server sent something the client cannot read.
        case protocolError
        /// The server answered `READONLY`: it is a replica now (a master demoted in a
        /// failover), so the client looks for the master again.
        case readOnlyReplica
        /// The write reached the master, but fewer replicas than `waitReplicas`
        /// acknowledged it in time (`WAIT`): it may not survive a failover.
        case notReplicated
    }

    /// The kind of failure.
    public let kind: Kind
    /// A one-line explanation, naming `host:port` when there is one.
    public let reason: String

    /// An error of `kind` explained by `reason`.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// An error about the server at `endpoint` ("host:port").
    package init(_ kind: Kind, endpoint: String, _ detail: String) {
        self.init(kind, "redis \(endpoint): \(detail)")
    }

    public var description: String { reason }
}
