// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// `GET /healthz` and `GET /readyz`: whether the process answers, and whether its store does.
enum HealthRoutes: LibraryRoutes {
    /// `GET /healthz` (the process answers) and `GET /readyz` (the store answers too).
    static func add(to router: Router<RequestContext>) {
        router.on(.get, "/healthz") { _, _ in HTTPResponse.text("ok\n") }
        router.on(.get, "/readyz") { _, context in
            // It asks the store (and settles its queued writes): on the blocking pool.
            let app = context.visitor.app
            return try await app.operations.blockingPool.run { readiness(app) }
        }
    }

    /// `/readyz`: 200 "ready" while the session store answers, else 503. A store of shards
    /// (a Redis Cluster) is ready when every shard answers, and the answer lists each.
    static func readiness(_ app: TabServerResponder) -> HTTPResponse {
        guard let shards = (app.store.opened as? any ShardedSessionStore)?.shards else {
            return app.store.checkReady()
                ? HTTPResponse.text("ready\n")
                : HTTPResponse.text("session store unavailable\n", status: .serviceUnavailable)
        }
        let ready = !shards.isEmpty && shards.allSatisfy(\.isUp)
        var text = ready ? "ready\n" : "session store unavailable\n"
        if shards.isEmpty { text += "no node of the cluster gave its slot map\n" }
        for shard in shards {
            let problem = shard.problem.map { " (\($0))" } ?? ""
            text += "shard \(shard.name) \(shard.detail)\(problem): \(shard.isUp ? "up" : "down")\n"
        }
        return HTTPResponse.text(text, status: ready ? .ok : .serviceUnavailable)
    }
}
