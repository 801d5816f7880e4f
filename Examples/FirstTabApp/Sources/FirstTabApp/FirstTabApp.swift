// SPDX-License-Identifier: Apache-2.0
import TabServer

@main
struct FirstTabApp {
    static func main() async throws {
        let app = Application(name: "groceries") { defaults in
            defaults.appName = "Groceries"
            (defaults.templateOverlays, defaults.publicOverlays) = (["Templates"], ["Public"])  // its pages, icons
        }
        addRoutes(to: app, items: Groceries(["Milk", "Bread"]))
        try await app.run()
    }

    static func addRoutes(to app: Application, items: Groceries) {
        app.tab("list") { list in
            list.page { _, context in items.page(context) }
            list.action { request, _ in
                let new = try request.decode(as: NewItem.self)  // 422 with the form if it does not decode
                try items.add(new.item)
                return .redirect(to: "", notice: "Added \(new.item).")
            }
        }
        app.tab("about") { about in about.page { _, _ in TabPage(title: "About", context: ["text": "A first app."]) } }
        app.router.get("/api/items") { _, _ in items.all }
        app.router.get("/api/items/{index}") { _, context in
            try items.item(at: context.parameters.require("index", as: Int.self))
        }
        app.add(middleware: ServerTiming())
    }
}
