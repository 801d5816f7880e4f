// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions

/// Plain commands and scripts, with Redis's failures mapped to `SessionStoreError`.
extension RedisSessionStore {
    /// Runs one plain command, mapping failures to `SessionStoreError` (an error reply
    /// is returned).
    func command(_ arguments: [[UInt8]], replicated: Bool = false) throws(SessionStoreError) -> RedisReply {
        try failFastWhileDown()
        do {
            let reply = try client.command(arguments, replicated: replicated)
            health.recordSuccess()
            return reply
        } catch {
            throw failed(error)
        }
    }

    func command(_ arguments: [String]) throws(SessionStoreError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// While the store is down, every call fails here at once, quoting the failure.
    func failFastWhileDown() throws(SessionStoreError) {
        if let failure = health.lastFailure {
            throw SessionStoreError("\(failure.reason) (failing fast until a background probe reaches Redis)")
        }
    }

    /// A failure to reach Redis: the store is down until the probe gets a `PONG`. A write
    /// the replicas did not acknowledge fails alone: Redis answers, and reads go on.
    func failed(_ error: RedisError) -> SessionStoreError {
        let failure = SessionStoreError(error.reason)
        guard error.kind != .notReplicated else { return failure }
        // After an outage Redis may hold less than this instance saw (a failover that lost
        // writes, a restart): no cached copy is to be trusted.
        cache.withLock { $0.removeAll() }
        // On a cluster only the failed primary's slots are away: its client fails fast while
        // it backs off, and the others' go on.
        if client.isCluster { return failure }
        health.recordFailure(failure) { [weak self] in
            guard let self else { return true }
            do {
                try self.client.probe()
                return true
            } catch {
                return false
            }
        }
        return failure
    }

    /// Runs `script` on this session's key, mapping failures to `SessionStoreError`.
    /// `replicated`: a write, followed by `WAIT` when the configuration wants replicas;
    /// when too few acknowledge it, it throws and this instance forgets the session.
    func run(
        _ script: RedisScript, key id: SessionID, _ arguments: [[UInt8]], replicated: Bool = false
    ) throws(SessionStoreError) -> RedisReply {
        try failFastWhileDown()
        let reply: RedisReply
        do {
            reply = try client.evaluate(
                script, keys: [Array(key(for: id).utf8)], arguments: arguments, replicated: replicated)
            health.recordSuccess()
        } catch {
            if error.kind == .notReplicated { forget(id) }
            throw failed(error)
        }
        if let message = reply.errorMessage { throw serverError(message) }
        return reply
    }

    /// An error reply (out of memory, read-only replica, script error): Redis is there
    /// but cannot serve, which for the app is the same as unavailable.
    func serverError(_ message: String) -> SessionStoreError {
        SessionStoreError("\(client.configuration.url): \(message)")
    }
}
