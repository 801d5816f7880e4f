// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@Suite("barStyle on the page: the body names the floating style on every page with the bar")
struct BarStylePageTests {
    @Test("floating names itself on <body>; the default and classic name nothing")
    func bodyClasses() async throws {
        for app in [try makeApp(), try makeApp(appearance: ["barStyle": "classic"])] {
            let page = await TestClient(app.responder).get("/tabs/music")
            #expect(page.status == 200)
            #expect(!page.bodyClasses.contains("bar-floating"))
        }
        let client = TestClient(try makeApp(appearance: ["barStyle": "floating"]).responder)
        for path in ["/tabs/music", "/tabs/music/albums/1", "/more"] {
            let page = await client.get(path)
            #expect(page.status == 200)
            #expect(page.bodyClasses.contains("bar-floating"), "\(path) names the floating style")
        }
    }

    @Test("an unknown style stops start-up with a message naming the file, the key and the choices")
    func refused() {
        do {
            _ = try makeApp(appearance: ["barStyle": "glass"])
            Issue.record("an unknown bar style must stop the start")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("tabs.json: invalid JSON: appearance.barStyle: unknown bar style 'glass'"))
            #expect(message.contains("\"classic\" or \"floating\""))
        }
    }
}
