import TabServerAppModel
import TabServerTesting
import TabServerViews
import Testing

// SPDX-License-Identifier: Apache-2.0
@testable import TabServerCore

/// Without the script the browser moves between pages itself (a cross-document view
/// transition), styled by the new page's rules on the old page's name: each page names
/// its content by tab and depth, and says which of the pages it can come from slide out
/// which way.
@Suite("Page transitions without the script")
struct PageTransitionTests {
    /// The page's own transition rules (the `<style>` in its head), nil without one.
    func rules(_ client: TestClient, _ path: String) async throws -> String? {
        let page = await client.get(path)
        guard page.status == 200 else { return nil }
        return try page.document.first("head > style")?.text
    }

    /// The old pages' names a rule makes slide out `kind` ("push" or "pop").
    func exits(_ rules: String, _ kind: String) -> Set<String> {
        var names: Set<String> = []
        for rule in rules.components(separatedBy: "}")
        where rule.hasSuffix("{animation-name:var(--tabserver-\(kind)-exit)") {
            for selector in rule.components(separatedBy: ",") {
                guard let open = selector.range(of: "::view-transition-old("), let close = selector.range(of: ")")
                else { continue }
                names.insert(String(selector[open.upperBound..<close.lowerBound]))
            }
        }
        return names
    }

    @Test("a page deep in a tab: shallower pages of the tab and More's list push, deeper ones pop")
    func inATab() async throws {
        let client = TestClient(try makeApp().responder)
        let album = try #require(try await rules(client, "/tabs/music/albums/1"))
        #expect(album.hasPrefix("main.app-content{view-transition-name:page-tab-music-4}"))
        #expect(exits(album, "push") == ["page-tab-music-2", "page-tab-music-3", "page-more-1"])
        #expect(exits(album, "pop") == ["page-tab-music-5", "page-tab-music-6"])
        let root = try #require(try await rules(client, "/tabs/music"))
        #expect(root.hasPrefix("main.app-content{view-transition-name:page-tab-music-2}"))
        #expect(exits(root, "push") == ["page-more-1"])
        #expect(exits(root, "pop") == ["page-tab-music-3", "page-tab-music-4", "page-tab-music-5", "page-tab-music-6"])
        // Another tab's pages are not named: a switch swaps.
        #expect(!root.contains("page-tab-movies"))
    }

    @Test("deeper pages share the deepest name; a query is not a level")
    func deepAndQuery() async throws {
        let client = TestClient(try makeApp().responder)
        let track = try #require(try await rules(client, "/tabs/music/albums/1/tracks/1"))
        #expect(track.hasPrefix("main.app-content{view-transition-name:page-tab-music-6}"))
        #expect(exits(track, "pop") == [])
        // A search tab's results are its root page with a query.
        let search = try #require(PageTransitionStyle.css(forPath: "/tabs/search?q=blue"))
        #expect(search.hasPrefix("main.app-content{view-transition-name:page-tab-search-2}"))
    }

    @Test("More's list is a pop from any tab; Edit is a push from it and back is a pop")
    func more() async throws {
        let client = TestClient(try makeApp().responder)
        let more = try #require(try await rules(client, "/more"))
        #expect(more.hasPrefix("main.app-content{view-transition-name:page-more-1}"))
        #expect(more.contains("@view-transition{navigation:auto;types:tabserver-to-more}"))
        #expect(exits(more, "pop") == ["page-more-2"])
        let edit = try #require(try await rules(client, "/more/edit"))
        #expect(edit.hasPrefix("main.app-content{view-transition-name:page-more-2}"))
        #expect(exits(edit, "push") == ["page-more-1"])
    }

    @Test("a page that is not a tab's or More's has no rules of its own")
    func none() async throws {
        let client = TestClient(try makeApp().responder)
        let missing = await client.get("/tabs/nope")
        #expect(missing.status == 404)
        #expect(!missing.body.contains("view-transition-name:page-"))
    }
}
