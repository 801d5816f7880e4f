// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import TabServerTabBar
import Testing

@Suite("Session")
struct SessionTests {
    @Test("a new session has a fresh id and a different CSRF token")
    func new() {
        let session = Session.new(now: 1_700_000_000)
        #expect(session.id != session.csrfToken)
        #expect(session.id.text != session.csrfToken.text)
        #expect(session.created == 1_700_000_000)
        #expect(session.lastSeen == 1_700_000_000)
        #expect(session.revision == 0)
        #expect(session.state == TabBarState())
        #expect(session.language == nil)
        #expect(session.notice == nil)
        #expect(session.customizationStart == nil)
    }

    @Test("two new sessions share neither id nor token")
    func twoSessions() {
        let a = Session.new(now: 0)
        let b = Session.new(now: 0)
        #expect(a.id != b.id)
        #expect(a.csrfToken != b.csrfToken)
        #expect(a.id != b.csrfToken)
        #expect(a != b)
    }

    @Test("the memberwise initializer keeps every field")
    func initializer() {
        var state = TabBarState()
        state.selectedTabID = "music"
        let id = SessionID.generate()
        let token = SessionID.generate()
        let session = Session(
            id: id, csrfToken: token, state: state, language: "de",
            notice: Notice(message: "No.", confirmTabID: "maps"),
            customizationStart: ["home", "music"], created: 10, lastSeen: 20, revision: 3)
        #expect(session.id == id)
        #expect(session.csrfToken == token)
        #expect(session.state.selectedTabID == "music")
        #expect(session.language == "de")
        #expect(session.notice == Notice(message: "No.", confirmTabID: "maps"))
        #expect(session.customizationStart == ["home", "music"])
        #expect(session.created == 10)
        #expect(session.lastSeen == 20)
        #expect(session.revision == 3)
    }
}
