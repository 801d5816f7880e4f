// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import TabServerTabBar
import Testing

@Suite("SessionCodec: push subscriptions")
struct SessionCodecPushTests {
    static func record(_ number: Int, notifications: Bool = false) -> PushSubscriptionRecord {
        PushSubscriptionRecord(
            endpoint: "https://push.example.net/send/\(number)",
            p256dh: [4] + Array(repeating: UInt8(number), count: 64),
            auth: Array(repeating: UInt8(number), count: 16), created: 1_700_000_000 + Int64(number),
            notifications: notifications)
    }

    @Test("a session's subscriptions survive its stored form, after the other tail entries")
    func roundTrip() throws {
        var session = Session.new(now: 1_700_000_000)
        session.mergedUser = .user("alice")
        session.appValues = ["theme": "dark"]
        session.state.collapsedGroups = ["watch"]
        let plain = SessionCodec.encode(session)
        session.pushSubscriptions = [Self.record(1), Self.record(2, notifications: true)]
        let bytes = SessionCodec.encode(session)
        #expect(Array(bytes.prefix(plain.count)) == plain)
        #expect(bytes[plain.count] == 6)
        let decoded = try SessionCodec.decode(bytes, id: session.id, revision: 3)
        #expect(decoded.pushSubscriptions == session.pushSubscriptions)
        #expect(decoded == session.withRevision(3))
        // Written before subscriptions existed: none.
        #expect(try SessionCodec.decode(plain, id: session.id, revision: 0).pushSubscriptions.isEmpty)
    }

    @Test("a later layout of the entry is skipped (the session keeps its state); a cut or padded one is refused")
    func versioned() throws {
        var session = Session.new(now: 1_700_000_000)
        let plain = SessionCodec.encode(session)
        session.pushSubscriptions = [Self.record(1)]
        let bytes = SessionCodec.encode(session)
        // The entry: tag 6, its length (one varint byte here), then the version byte.
        var later = bytes
        later[plain.count + 2] = 2
        let skipped = try SessionCodec.decode(later, id: session.id, revision: 0)
        #expect(skipped.pushSubscriptions.isEmpty)
        #expect(skipped.state == session.state)
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode(Array(bytes.dropLast()), id: session.id, revision: 0)
        }
        var padded = bytes
        padded[plain.count + 1] += 1
        padded.append(0)
        #expect(throws: SessionStoreError.self) { try SessionCodec.decode(padded, id: session.id, revision: 0) }
    }

    static func record(_ number: Int, endpointLength: Int) -> PushSubscriptionRecord {
        var record = Self.record(number)
        let prefix = "https://push.example.net/\(number)/"
        record.endpoint = prefix + String(repeating: "x", count: endpointLength - prefix.utf8.count)
        return record
    }

    @Test(
        "adding replaces a subscription with the same endpoint and keeps the newest within the count; removing drops one"
    )
    func list() {
        var list: [PushSubscriptionRecord] = []
        for number in 0..<10 { list = list.adding(Self.record(number), within: .user) }
        #expect(list.count == PushSubscriptionLimit.user.count)
        #expect(list.first?.endpoint == Self.record(10 - PushSubscriptionLimit.user.count).endpoint)
        list = list.adding(Self.record(5, notifications: true), within: .user)
        #expect(list.count == PushSubscriptionLimit.user.count)
        #expect(list.last == Self.record(5, notifications: true))
        #expect(list.filter { $0.endpoint == Self.record(5).endpoint }.count == 1)
        #expect(list.removing(endpoint: Self.record(5).endpoint).count == PushSubscriptionLimit.user.count - 1)
        var browser: [PushSubscriptionRecord] = []
        for number in 0..<5 { browser = browser.adding(Self.record(number), within: .browser) }
        #expect(browser == [Self.record(3), Self.record(4)])
    }

    @Test("long endpoints count in bytes: the oldest go until the newest fit; one past the cap alone is not kept")
    func bytes() {
        var list: [PushSubscriptionRecord] = []
        for number in 0..<4 { list = list.adding(Self.record(number, endpointLength: 1024), within: .user) }
        #expect(list.map(\.endpoint) == [2, 3].map { Self.record($0, endpointLength: 1024).endpoint })
        #expect(list.reduce(0) { $0 + $1.storedBytes } <= PushSubscriptionLimit.user.bytes)
        let huge = Self.record(9, endpointLength: 4000)
        #expect([PushSubscriptionRecord]().adding(huge, within: .user).isEmpty)
    }

    @Test("a session an earlier version wrote with eight subscriptions loads, trimmed to the newest that fit")
    func earlierLists() throws {
        var session = Session.new(now: 1_700_000_000)
        session.pushSubscriptions = (0..<8).map { Self.record($0, endpointLength: 2048) }
        let bytes = SessionCodec.encode(session)
        let decoded = try SessionCodec.decode(bytes, id: session.id, revision: 0)
        #expect(decoded.pushSubscriptions.isEmpty, "endpoints past 1 KiB can never be sent to: dropped")
        session.pushSubscriptions = (0..<8).map { Self.record($0) }
        let short = try SessionCodec.decode(SessionCodec.encode(session), id: session.id, revision: 0)
        #expect(short.pushSubscriptions == Array(session.pushSubscriptions.suffix(PushSubscriptionLimit.user.count)))
    }

    @Test("a session with a subscription differs from one without, and its notice stays its own")
    func rareParts() {
        var a = Session.new(now: 0)
        var b = a
        a.pushSubscriptions = [Self.record(1)]
        #expect(a != b)
        a.notice = Notice(message: "Hi")
        #expect(a.pushSubscriptions == [Self.record(1)])
        a.pushSubscriptions = []
        #expect(a.notice == Notice(message: "Hi"))
        b.notice = Notice(message: "Hi")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}
