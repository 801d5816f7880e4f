// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@Suite("minimizeBehavior on the page: the body names it, every page with the bar")
struct MinimizeBehaviorPageTests {
    @Test("onScrollDown and onScrollUp name themselves on <body>; the default names nothing")
    func bodyClasses() async throws {
        let plain = await TestClient(try makeApp().responder).get("/tabs/music")
        #expect(!plain.bodyClasses.contains("minimizes-bar"))
        for (value, name) in [("onScrollDown", "minimize-on-scroll-down"), ("onScrollUp", "minimize-on-scroll-up")] {
            let client = TestClient(try makeApp(appearance: ["minimizeBehavior": value]).responder)
            for path in ["/tabs/music", "/tabs/music/albums/1", "/more"] {
                let page = await client.get(path)
                #expect(page.status == 200)
                #expect(page.bodyClasses.contains("minimizes-bar"), "\(path) minimizes")
                #expect(page.bodyClasses.contains(name), "\(path) names \(name)")
            }
        }
    }

    @Test("an unknown behaviour stops start-up with the key's name")
    func refused() {
        #expect(throws: (any Error).self) { try makeApp(appearance: ["minimizeBehavior": "sometimes"]) }
    }
}
