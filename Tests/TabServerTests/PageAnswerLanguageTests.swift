// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerTesting
import Testing

@testable import TabServerCore

/// A finished page is kept for the language it is in, not for the `Accept-Language` text
/// that asked for it: headers that negotiate the same language find the same page, one
/// that negotiates another language gets a page of its own, and an explicit choice in the
/// session counts, whatever the header says.
@Suite("The cache of finished pages: keyed by the negotiated language")
struct PageAnswerLanguageTests {
    /// A returning visitor's tab page with `header`: its language and whether it came from
    /// the cache.
    private static func visit(_ client: TestClient, _ app: Application, header: String) async -> (String?, Bool) {
        client.defaultHeaders = [("Accept-Language", header)]
        let before = app.responder.pages.answers.hits
        let page = await client.get("/tabs/music")
        let language = page.body.firstRange(of: "<html lang=\"").map { found in
            String(page.body[found.upperBound...].prefix { $0 != "\"" })
        }
        return (language, app.responder.pages.answers.hits > before)
    }

    @Test("headers that negotiate one language share its page; another language is a page of its own")
    func sharedByLanguage() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        #expect(await client.get("/tabs/music").status == 200)  // the visit that stores the session
        let first = await Self.visit(client, app, header: "de-AT,de;q=0.9")
        #expect(first.0 == "de")
        #expect(await Self.visit(client, app, header: "de-AT,de;q=0.9") == ("de", true))
        #expect(await Self.visit(client, app, header: "de") == ("de", true), "another header, the same language")
        let long = (0..<3_000).map { "x\($0)-yy;q=0.5" }.joined(separator: ", ")
        #expect(await Self.visit(client, app, header: "DE;q=0.9, " + long) == ("de", true), "31 KB, the same language")
        #expect(await Self.visit(client, app, header: "ja") == ("ja", false), "another language: rendered")
        #expect(await Self.visit(client, app, header: "ja-JP, en;q=0.1") == ("ja", true))
        #expect(await Self.visit(client, app, header: "fr") == ("en", false), "no match: English, rendered")
        #expect(await Self.visit(client, app, header: "") == ("en", true), "English, whatever asked for it")
    }

    @Test("a language chosen in the session is the page's, whatever the header")
    func chosenLanguage() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        client.defaultHeaders = [("Accept-Language", "de")]
        let token = try #require(await client.get("/more").csrfToken)
        #expect(await client.post("/language", form: [("csrf", token), ("lang", "ar")]).status == 303)
        #expect(await Self.visit(client, app, header: "de").0 == "ar")
        #expect(await Self.visit(client, app, header: "de") == ("ar", true))
        #expect(await Self.visit(client, app, header: "ja") == ("ar", true), "the choice, not the header")
    }
}
