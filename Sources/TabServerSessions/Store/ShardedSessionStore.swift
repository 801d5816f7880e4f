// SPDX-License-Identifier: Apache-2.0
/// A session store spread over shards (a Redis Cluster's primaries), each of which can
/// fail alone: `/readyz` and `/metrics` report each one.
///
/// ```swift
/// if let shards = (store as? any ShardedSessionStore)?.shards {
///     for shard in shards { print(shard.name, shard.isUp) }
/// }
/// ```
public protocol ShardedSessionStore: SessionStore {
    /// Each shard as the store finds it now (asking each one; not for the hot path), or
    /// nil when this store is not spread over shards (a Redis store on one server).
    var shards: [SessionStoreShard]? { get }
}

/// One shard of a `ShardedSessionStore`.
public struct SessionStoreShard: Sendable, Hashable {
    /// Where it is ("127.0.0.1:7000").
    public var name: String
    /// What it holds ("slots 0-5460").
    public var detail: String
    /// Whether it can take a write now.
    public var isUp: Bool
    /// Why it cannot, when it cannot and says why ("0 of 1 replica(s) connected").
    public var problem: String?

    public init(name: String, detail: String, isUp: Bool, problem: String? = nil) {
        self.name = name
        self.detail = detail
        self.isUp = isUp
        self.problem = problem
    }
}
