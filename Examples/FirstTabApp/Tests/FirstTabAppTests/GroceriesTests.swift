// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerTesting
import Testing

@testable import FirstTabApp

@Suite("Your first tab app")
struct GroceriesTests {
    /// The app as `main` builds it, from the tutorial's folder, with sessions in memory.
    func client() throws -> TestClient {
        var configuration = AppConfiguration()
        let folder = TestFixtures.repositoryRoot + "/Examples/FirstTabApp"
        configuration.tabsFile = folder + "/tabs.json"
        configuration.templateOverlays = [folder + "/Templates"]
        configuration.publicOverlays = [folder + "/Public"]
        configuration.sessions = .memory()
        configuration.accessLog = false
        return TestClient(try buildApplication(configuration, content: Groceries().content).responder)
    }

    @Test("the list shows its items and adds one with a 303; an empty one is a 422 that adds nothing")
    func addItems() throws {
        let client = try client()
        let list = client.get("/tabs/list")
        #expect(list.status == 200)
        #expect(list.body.contains("Bread"))
        let empty = client.post("/tabs/list", form: [("csrf", list.csrfToken ?? ""), ("item", " ")])
        #expect(empty.status == 422)
        #expect(empty.body.contains("Write what to buy."))
        let added = client.post("/tabs/list", form: [("csrf", list.csrfToken ?? ""), ("item", "Eggs")])
        #expect(added.status == 303)
        let shown = client.follow(added)
        #expect(shown.body.contains("Eggs"))
        #expect(shown.body.contains("Added Eggs."))
        #expect(client.get("/tabs/about").body.contains("A first tab app"))
    }
}
