// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import TabServerTabBar
import Testing

@Suite("SessionCodec")
struct SessionCodecTests {
    @Test("every field survives the binary form, which starts with the format number")
    func roundTrip() throws {
        let session = RedisTestHelpers.richSession(now: 1_700_000_000)
        let bytes = SessionCodec.encode(session)
        #expect(bytes.first == UInt8(SessionCodec.format))
        #expect(bytes.count < 200)
        let decoded = try SessionCodec.decode(bytes, id: session.id, revision: 0)
        #expect(decoded == session)
        let fresh = Session.new(now: -5)
        #expect(try SessionCodec.decode(SessionCodec.encode(fresh), id: fresh.id, revision: 7).revision == 7)
        #expect(try SessionCodec.decode(SessionCodec.encode(fresh), id: fresh.id, revision: 0) == fresh)
    }

    @Test("the user a session was merged into survives; sessions written without it still read")
    func mergedUser() throws {
        var session = Session.new(now: 1_700_000_000)
        let plain = SessionCodec.encode(session)
        session.mergedUser = .user("alice")
        let bytes = SessionCodec.encode(session)
        #expect(bytes.count == plain.count + 17)
        #expect(try SessionCodec.decode(bytes, id: session.id, revision: 0).mergedUser == .user("alice"))
        #expect(try SessionCodec.decode(plain, id: session.id, revision: 0).mergedUser == nil)
        #expect(throws: SessionStoreError.self) { try SessionCodec.decode(plain + [2], id: session.id, revision: 0) }
        #expect(SessionID.user("alice") != SessionID.user("bob"))
        #expect(Session.userRecord("alice", now: 0).isUserRecord && !session.isUserRecord)
    }

    @Test("the app's values survive, beside the merged user or alone; tail entries out of order are refused")
    func appValues() throws {
        var session = Session.new(now: 1_700_000_000)
        let plain = SessionCodec.encode(session)
        session.appValues = ["sort": "title", "theme": "dark", "": "é"]
        let alone = SessionCodec.encode(session)
        #expect(try SessionCodec.decode(alone, id: session.id, revision: 0) == session)
        session.mergedUser = .user("alice")
        let both = SessionCodec.encode(session)
        #expect(try SessionCodec.decode(both, id: session.id, revision: 0) == session)
        #expect(try SessionCodec.decode(plain, id: session.id, revision: 0).appValues.isEmpty)
        // The values' entry (2) before the merged user's (1): not a form this writes.
        let valuesPart = Array(alone[plain.count...])
        let mergedPart = Array(both[plain.count..<(plain.count + 17)])
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode(plain + valuesPart + mergedPart, id: session.id, revision: 0)
        }
    }

    @Test("the sidebar choice survives as its own tail entry, after the app's values; sessions without it still read")
    func sidebarChoice() throws {
        var session = Session.new(now: 1_700_000_000)
        let plain = SessionCodec.encode(session)
        for hidden in [true, false] {
            session.state.isSidebarHidden = hidden
            let bytes = SessionCodec.encode(session)
            #expect(bytes.count == plain.count + 2)
            #expect(try SessionCodec.decode(bytes, id: session.id, revision: 0).state.isSidebarHidden == hidden)
        }
        session.appValues = ["playing": "1"]
        let both = try SessionCodec.decode(SessionCodec.encode(session), id: session.id, revision: 0)
        #expect(both == session)
        #expect(try SessionCodec.decode(plain, id: session.id, revision: 0).state.isSidebarHidden == nil)
        // A flag byte other than 0 or 1 is not a session this version wrote.
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode(plain + [3, 2], id: session.id, revision: 0)
        }
    }

    @Test("the hide and show choices survive as tail entry 4, after the sidebar choice; malformed ones are refused")
    func hiddenChoices() throws {
        var session = Session.new(now: 1_700_000_000)
        let plain = SessionCodec.encode(session)
        session.state.hiddenChoices = ["tv": false, "movies": true]
        session.state.isSidebarHidden = true
        let decoded = try SessionCodec.decode(SessionCodec.encode(session), id: session.id, revision: 0)
        #expect(decoded.state.hiddenChoices == ["tv": false, "movies": true])
        #expect(decoded == session)
        #expect(try SessionCodec.decode(plain, id: session.id, revision: 0).state.hiddenChoices.isEmpty)
        // A value other than "0" or "1", or keys and values of different counts.
        for tail: [UInt8] in [[4, 1, 2, 116, 118, 1, 1, 50], [4, 1, 2, 116, 118, 0]] {
            #expect(throws: SessionStoreError.self) {
                try SessionCodec.decode(plain + tail, id: session.id, revision: 0)
            }
        }
    }

    @Test("equal sessions encode to equal bytes (dictionaries are written sorted)")
    func deterministic() {
        var session = RedisTestHelpers.richSession(now: 0)
        let first = SessionCodec.encode(session)
        session.state.locations = Dictionary(uniqueKeysWithValues: session.state.locations.reversed().map { ($0, $1) })
        #expect(SessionCodec.encode(session) == first)
    }

    @Test("a session written as JSON by an earlier version is still read")
    func legacyJSON() throws {
        let id = SessionID.generate()
        let token = SessionID.generate()
        let json = """
            {"format":1,"csrf":"\(token.text)","state":{"selectedTabID":"music","locations":{"music":"albums/12"},\
            "badgeOverrides":{"home":{"hidden":true},"news":{"badge":{"count":3,"color":"#ff3b30"}}},"version":3},\
            "language":"de","notice":{"message":"No."},"created":10,"lastSeen":20}
            """
        let session = try SessionCodec.decode(Array(json.utf8), id: id, revision: 4)
        #expect(session.csrfToken == token)
        #expect(session.state.selectedTabID == "music")
        #expect(session.state.locations == ["music": "albums/12"])
        #expect(session.state.badgeOverrides == ["home": .hidden, "news": .badge(.count(3, color: "#ff3b30"))])
        #expect(session.state.version == 3)
        #expect(session.language == "de")
        #expect(session.notice == Notice(message: "No."))
        #expect(session.created == 10 && session.lastSeen == 20 && session.revision == 4)
        // Written back in the binary form, and read the same.
        #expect(try SessionCodec.decode(SessionCodec.encode(session), id: id, revision: 4) == session)
    }

    @Test("a session a newer build wrote loads with everything this one knows: its new entries, framed, are skipped")
    func newerEntriesSkipped() throws {
        var session = RedisTestHelpers.richSession(now: 1_700_000_000)
        session.state.collapsedGroups = ["watch"]
        let bytes = SessionCodec.encode(session)
        // Two entries of a later build after everything this one writes: tag, length, bytes.
        let newer = bytes + [7, 3, 0xAA, 0xBB, 0xCC] + [40, 0]
        #expect(
            try SessionCodec.decode(newer, id: session.id, revision: 3)
                == SessionCodec.decode(
                    bytes, id: session.id, revision: 3))
        // A framed entry whose length runs past the end is malformed, as is one out of order.
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode(bytes + [7, 9, 1], id: session.id, revision: 0)
        }
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode(bytes + [9, 0, 8, 0], id: session.id, revision: 0)
        }
    }

    @Test("truncated, padded or corrupted bytes are refused, never a crash")
    func malformed() {
        let session = RedisTestHelpers.richSession(now: 0)
        let bytes = SessionCodec.encode(session)
        for length in 0..<bytes.count {
            #expect(throws: SessionStoreError.self) {
                try SessionCodec.decode(Array(bytes.prefix(length)), id: session.id, revision: 0)
            }
        }
        #expect(throws: SessionStoreError.self) { try SessionCodec.decode(bytes + [0], id: session.id, revision: 0) }
        #expect(throws: SessionStoreError.self) {
            try SessionCodec.decode([9] + bytes.dropFirst(), id: session.id, revision: 0)
        }
        // Flipping any single byte either still decodes or throws.
        for index in bytes.indices {
            var corrupted = bytes
            corrupted[index] ^= 0xFF
            _ = try? SessionCodec.decode(corrupted, id: session.id, revision: 0)
        }
    }
}
