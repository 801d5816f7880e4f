// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import Testing

@Suite("SessionLifetime")
struct SessionLifetimeTests {
    static func session(created: Int64, lastSeen: Int64) -> Session {
        var session = Session.new(now: created)
        session.lastSeen = lastSeen
        return session
    }

    @Test("idle timeout counts from the last request")
    func idle() {
        let lifetime = SessionLifetime(idle: 100, absolute: 10_000)
        let session = Self.session(created: 0, lastSeen: 500)
        #expect(!lifetime.isExpired(session, now: 500))
        #expect(!lifetime.isExpired(session, now: 600))
        #expect(lifetime.isExpired(session, now: 601))
    }

    @Test("absolute timeout counts from creation, however recent the last request")
    func absolute() {
        let lifetime = SessionLifetime(idle: 100, absolute: 1_000)
        let session = Self.session(created: 0, lastSeen: 999)
        #expect(!lifetime.isExpired(session, now: 1_000))
        #expect(lifetime.isExpired(session, now: 1_001))
    }

    @Test("defaults are long enough for preferences: weeks idle, months absolute")
    func defaults() {
        let lifetime = SessionLifetime()
        #expect(lifetime.idle >= 7 * 86_400)
        #expect(lifetime.absolute > lifetime.idle)
        let session = Self.session(created: 0, lastSeen: 0)
        #expect(!lifetime.isExpired(session, now: 86_400))
        #expect(lifetime.isExpired(session, now: lifetime.idle + 1))
    }
}
