// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerTestSupport
import TabServerTesting
import Testing

@Suite("No lost updates on one session")
struct LostUpdateTests {
    @Test(
        "two clients × 200 concurrent posts on one session: every accepted change is there",
        arguments: ["memory", "sqlite"])
    func concurrentPosts(store: String) async throws {
        let path = TestFixtures.temporaryDirectory("lost") + "/sessions.sqlite"
        let app = try makeApp { $0.sessions = store == "memory" ? .memory() : .sqlite(path: path) }
        try await Self.run(app)
    }

    /// Client A selects tabs; client B rearranges them, at the same time, 200 posts each.
    /// Each client's last accepted change must be in the final state: a lost update would
    /// put back the other's stale copy.
    static func run(_ app: Application) async throws {
        let first = TestClient(app.responder)
        let token = try await #require(first.get("/tabs/music").csrfToken)
        let cookie = try #require(first.cookies["tabserver_session"])
        _ = await first.get("/more/edit")

        let lastSelection = Mutex<String?>(nil)
        // Where Music should be after B's accepted moves: it starts second (index 1);
        // each accepted "down" moves it one place later, each accepted "up" one earlier.
        let musicIndex = Mutex(1)
        let accepted = Atomic<Int>(0)
        let box = AppBox(app)
        await onThreads(2) { worker in
            let client = TestClient(box.app.responder)
            client.cookies["tabserver_session"] = cookie
            let tabs = ["movies", "tv", "music"]
            for step in 0..<200 {
                if worker == 0 {
                    let tab = tabs[step % tabs.count]
                    let response = await client.post("/select", form: [("csrf", token), ("tab", tab)])
                    if response.status == 303 {
                        lastSelection.withLock { $0 = tab }
                        accepted.add(1, ordering: .relaxed)
                    }
                } else {
                    let editor = await client.get("/more/edit")
                    guard let version = editor.customizeVersion else { continue }
                    // Down and up in turn; when Music sits first among the movable tabs, down.
                    let position = musicIndex.withLock { $0 }
                    let direction = step % 2 == 0 || position <= 1 ? "down" : "up"
                    let response = await client.post(
                        "/more/edit",
                        form: [("csrf", token), ("version", version), ("action", direction), ("tab", "music")])
                    if response.status == 303 {
                        musicIndex.withLock { $0 += direction == "down" ? 1 : -1 }
                        accepted.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(accepted.load(ordering: .relaxed) >= 300, "most posts go through; a few may meet a 409")
        let check = TestClient(app.responder)
        check.cookies["tabserver_session"] = cookie
        let selected = try #require(lastSelection.withLock { $0 })
        await #expect(check.get("/").location == "/tabs/\(selected)")
        let expectedMusicIndex = musicIndex.withLock { $0 }
        await #expect(check.get("/tabs/featured").barTabIDs.firstIndex(of: "music") == expectedMusicIndex)
    }
}

/// Carries the app into concurrent closures (it is `Sendable`; this keeps the closure
/// from capturing the test's own context).
struct AppBox: Sendable {
    let app: Application
    init(_ app: Application) { self.app = app }
}
