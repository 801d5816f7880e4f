// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerTesting
import Testing

@testable import FirstTabApp

@Suite("Your first tab app")
struct GroceriesTests {
    /// The app as `main` builds it, from the tutorial's own folder, with sessions in memory.
    func app() throws -> Application {
        let app = Application(configuration: TestFixtures.configuration(ofPackage: "FirstTabApp"))
        FirstTabApp.addRoutes(to: app, items: Groceries(["Milk", "Bread"]))
        return app
    }

    @Test("the list shows its items and adds one with a 303; an empty one is a 422 with the form, adding nothing")
    func addItems() async throws {
        let client = try TestClient(app())
        let list = await client.get("/tabs/list")
        #expect(list.status == 200)
        #expect(list.body.contains("Bread"))
        let empty = await client.post("/tabs/list", form: [("csrf", list.csrfToken ?? ""), ("item", " ")])
        #expect(empty.status == 422)
        #expect(empty.body.contains("Write what to buy."))
        let added = await client.post("/tabs/list", form: [("csrf", list.csrfToken ?? ""), ("item", "Eggs")])
        #expect(added.status == 303)
        let shown = await client.follow(added)
        #expect(shown.body.contains("Eggs"))
        #expect(shown.body.contains("Added Eggs."))
        #expect(await client.get("/tabs/about").body.contains("A first app"))
    }

    @Test("an item past its length or a full list is a 422 naming the field; nothing is added")
    func limits() async throws {
        let items = Groceries([])
        let long = String(repeating: "x", count: Groceries.longestItem + 1)
        #expect(throws: FieldError.self) { try items.add(long) }
        for number in 0..<Groceries.mostItems { try items.add("item \(number)") }
        #expect(throws: FieldError.self) { try items.add("one more") }
        #expect(items.all.count == Groceries.mostItems)
        let app = Application(configuration: TestFixtures.configuration(ofPackage: "FirstTabApp"))
        FirstTabApp.addRoutes(to: app, items: items)
        let client = try TestClient(app)
        let token = await client.get("/tabs/list").csrfToken ?? ""
        let full = await client.post("/tabs/list", form: [("csrf", token), ("item", "Eggs")])
        #expect(full.status == 422)
        #expect(full.body.contains("The list is full"))
    }

    @Test("GET /api/items is a JSON array; /api/items/{index} one item, 404 unknown, 400 not a number")
    func json() async throws {
        let client = try TestClient(app())
        let all = await client.get("/api/items")
        #expect(all.status == 200)
        #expect(all.headers["content-type"] == "application/json")
        #expect(all.body == #"[{"index":0,"name":"Milk"},{"index":1,"name":"Bread"}]"#)
        let one = await client.get("/api/items/1")
        #expect(one.body == #"{"index":1,"name":"Bread"}"#)
        let unknown = await client.get("/api/items/9", headers: [("Accept", "application/json")])
        #expect(unknown.status == 404)
        #expect(unknown.headers["content-type"] == "application/problem+json")
        let notNumber = await client.get("/api/items/two", headers: [("Accept", "application/json")])
        #expect(notNumber.status == 400)
        #expect(notNumber.body.contains("\"field\":\"index\""))
    }

    @Test("Server-Timing is on every answer: pages, JSON, errors and static files")
    func serverTiming() async throws {
        let client = try TestClient(app())
        for path in ["/tabs/list", "/api/items", "/api/items/x", "/css/app.css", "/nowhere", "/manifest.webmanifest"] {
            let response = await client.get(path)
            #expect(response.headers["server-timing"]?.hasPrefix("app;dur=") == true, "\(path): \(response.status)")
        }
    }
}
