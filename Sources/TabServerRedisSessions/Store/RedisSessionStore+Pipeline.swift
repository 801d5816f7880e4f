// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions

/// Revision checks and writes sent in the shared pipeline, so the engine thread does not
/// wait for Redis and many requests share one round trip.
extension RedisSessionStore {
    /// One `HGET` of `rev`: whether `session` is still the stored revision. A stale
    /// cached copy is dropped.
    public func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool {
        guard !isRefused(session) else {
            forget(session.id)
            return false
        }
        let reply = try command(revisionCheck(session))
        if matches(reply, session) { return true }
        forget(session.id)
        return false
    }

    /// Empties the cache when the client has moved to another master (a Sentinel
    /// failover) since the last look: without `WAIT`, the new master may lack writes the
    /// cache holds, and a revision number may come to stand for other bytes there.
    func dropCacheIfMasterChanged() {
        let generation = client.generation
        guard cacheGeneration.exchange(generation, ordering: .relaxed) != generation else { return }
        cache.withLock { $0.removeAll() }
    }

    /// Whether `session` is a write of this instance that Redis refused (known here once
    /// its answer came; Redis refuses whatever is built on it in any case).
    func isRefused(_ session: Session) -> Bool {
        guard session.writeToken != 0 else { return false }
        return cache.withLock { cache in
            guard let cached = cache[session.id], cached.session.revision == session.revision,
                cached.session.writeToken == session.writeToken
            else { return false }
            return cached.failed
        }
    }

    /// `HGET rev`, or for a copy that is an unconfirmed write of this instance `HMGET rev
    /// w`: another instance's write may carry the same revision.
    func revisionCheck(_ session: Session) -> [[UInt8]] {
        let key = Array(key(for: session.id).utf8)
        guard session.writeToken != 0 else { return [Array("HGET".utf8), key, Array("rev".utf8)] }
        return [Array("HMGET".utf8), key, Array("rev".utf8), Array("w".utf8)]
    }

    func matches(_ reply: RedisReply, _ session: Session) -> Bool {
        guard session.writeToken != 0 else { return reply.integer == session.revision }
        guard let fields = reply.array, fields.count == 2 else { return false }
        return fields[0].integer == session.revision && fields[1].bytes == Self.tokenText(session.writeToken)
    }

    /// A write token as the script compares it (empty for 0: no token).
    static func tokenText(_ token: UInt64) -> [UInt8] {
        token == 0 ? [] : Array(String(token).utf8)
    }

    /// Checks and writes go through the shared pipeline (see below).
    public var answersLater: Bool { true }

    /// The same `HGET` sent in the shared pipeline, so the engine thread does not wait
    /// for it and many requests' checks share one round trip. While the store is down it
    /// declines (the synchronous call then fails fast).
    public func isCurrent(
        _ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void
    ) -> Bool {
        guard health.isUp, !isRefused(session) else { return false }  // the synchronous check answers at once
        pipeline.send(revisionCheck(session)) { [self] result in
            switch result {
            case .success(let reply):
                health.recordSuccess()
                if matches(reply, session) {
                    done(.success(true))
                } else {
                    forget(session.id)
                    done(.success(false))
                }
            case .failure(let error):
                done(.failure(failed(error)))
            }
        }
        return true
    }

    /// The compare-and-set script sent in the shared pipeline, applied to this instance's
    /// copy at once: the next request of the session builds on it and its write queues
    /// behind this one in the same pipeline (so a visitor's quick taps do not wait for
    /// each other's round trips). Each such write carries a token, stored with it in
    /// Redis, and so does the copy built on it: a write resting on an unconfirmed one
    /// names its token, so it fails, like its predecessor, if another instance wrote
    /// first, whatever this instance's cache forgot or reloaded meanwhile. Each failed
    /// write forgets the copy. Declines while the store is down.
    public func update(
        _ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void
    ) -> Bool {
        guard health.isUp, !isRefused(session) else { return false }
        let bytes = SessionCodec.encode(session)
        let stored = session.withRevision(
            session.revision + 1, writeToken: max(1, writeTokens.wrappingAdd(1, ordering: .relaxed).newValue))
        cache.withLock { cache in
            if cache[session.id] == nil { cache.evictLeastRecentlyUsed(toFit: cacheCapacity) { $0.session.lastSeen } }
            cache[session.id] = Cached(session: stored, recordedSeen: stored.lastSeen, inFlight: true)
        }
        writing.withLock { $0[session.id, default: 0] += 1 }
        let arguments = [
            Array(String(session.revision).utf8), bytes, Array(String(session.lastSeen).utf8),
            Array(String(timeToLive(for: session)).utf8), Self.tokenText(session.writeToken),
            Self.tokenText(stored.writeToken),
        ]
        send(Self.updateScript, key: session.id, arguments, replicated: true) { [self] result in
            let last = writing.withLock { writing -> Bool in
                let left = (writing[session.id] ?? 1) - 1
                writing[session.id] = left > 0 ? left : nil
                return left <= 0
            }
            switch result {
            case .success(let reply):
                health.recordSuccess()
                guard reply.errorMessage == nil, let revision = reply.integer, revision == stored.revision else {
                    // Not written (the revision or token moved on, the session is gone, or
                    // an error reply): the copy here is not what Redis holds.
                    markFailed(stored)
                    if let message = reply.errorMessage, !message.hasPrefix("NOSCRIPT") {
                        done(.failure(serverError(message)))
                    } else {
                        done(.success(nil))
                    }
                    return
                }
                if last {
                    cache.withLock { cache in
                        if cache[session.id]?.session.writeToken == stored.writeToken {
                            cache[session.id]?.inFlight = false
                        }
                    }
                }
                done(.success(stored))
            case .failure(let error):
                markFailed(stored)
                done(.failure(failed(error)))
            }
        }
        return true
    }

    /// Marks this instance's copy of `stored`, a write Redis refused, as never to be used.
    func markFailed(_ stored: Session) {
        cache.withLock { cache in
            guard let cached = cache[stored.id], cached.session.revision == stored.revision,
                cached.session.writeToken == stored.writeToken
            else { return }
            cache[stored.id]?.failed = true
            cache[stored.id]?.inFlight = false
        }
    }

    /// Runs the update script through the pipeline: with its source (`EVAL`) until Redis
    /// has it, then by hash (`EVALSHA`). A `NOSCRIPT` answer (Redis restarted or flushed
    /// its scripts) is not retried here, where a retry would overtake the writes queued
    /// behind it: the write counts as lost and its request runs again.
    func send(
        _ script: RedisScript, key id: SessionID, _ arguments: [[UInt8]], replicated: Bool,
        done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let tail = [Array("1".utf8), Array(key(for: id).utf8)] + arguments
        let byHash = scriptLoaded.load(ordering: .relaxed)
        let head =
            byHash
            ? [Array("EVALSHA".utf8), Array(script.sha1.utf8)] : [Array("EVAL".utf8), Array(script.source.utf8)]
        pipeline.send(head + tail, replicated: replicated) { [self] result in
            if case .success(let reply) = result {
                let unknown = reply.errorMessage?.hasPrefix("NOSCRIPT") ?? false
                scriptLoaded.store(!unknown, ordering: .relaxed)
            }
            done(result)
        }
    }
}
