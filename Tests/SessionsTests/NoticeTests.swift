// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerSessions
import Testing

@Suite("Notice")
struct NoticeTests {
    @Test("round-trips through JSON, with and without a tab to confirm")
    func codable() throws {
        for notice in [
            Notice(message: "Maps needs a subscription.", confirmTabID: "maps"), Notice(message: "Saved \"x\" ✓"),
        ] {
            let data = try JSONEncoder().encode(notice)
            #expect(try JSONDecoder().decode(Notice.self, from: data) == notice)
        }
    }

    @Test("compares by message and tab")
    func equality() {
        #expect(Notice(message: "a") == Notice(message: "a", confirmTabID: nil))
        #expect(Notice(message: "a") != Notice(message: "b"))
        #expect(Notice(message: "a", confirmTabID: "x") != Notice(message: "a", confirmTabID: "y"))
    }
}
