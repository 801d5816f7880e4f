// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("Languages: negotiation, explicit choice, right-to-left")
struct LocalizationTests {
    /// The visible title of a bar item: a tab's (`music`), or More's (`more`).
    static func itemTitle(_ page: TestResponse, _ id: String) throws -> String? {
        let selector =
            id == "more"
            ? "nav.tab-bar .tab-more .tab .tab-title" : "nav.tab-bar button[name=tab][value=\(id)] .tab-title"
        return try page.document.first(selector)?.text
    }

    @Test(
        "Accept-Language picks the language of the page",
        arguments: [
            ("de-AT,de;q=0.9,en;q=0.5", "de", "ltr", "Mehr"), ("ar", "ar", "rtl", "المزيد"),
            ("ja-JP", "ja", "ltr", "その他"),
            ("fr, de;q=0.5", "de", "ltr", "Mehr"), ("de;q=0, ja;q=0.4", "ja", "ltr", "その他"),
            ("fr", "en", "ltr", "More"),
            ("", "en", "ltr", "More"), ("*", "en", "ltr", "More"),
        ])
    func negotiation(header: String, code: String, direction: String, more: String) async throws {
        let client = TestClient(try makeApp().responder)
        client.defaultHeaders = [("Accept-Language", header)]
        let page = await client.get("/tabs/featured")
        #expect(page.language == code)
        #expect(try page.document.first("html")?.attribute("dir") == direction)
        #expect(try Self.itemTitle(page, "more") == more)
    }

    @Test(
        "a 31 KB Accept-Language is read only as far as its first 16 ranges; ranges in any case, long ones skipped",
        arguments: [
            (15, "DE-at", "de"), (16, "de", "en"), (0, String(repeating: "d", count: 100) + ", Ja", "ja"),
        ])
    func boundedNegotiation(before: Int, range: String, code: String) async throws {
        let client = TestClient(try makeApp().responder)
        let unknown = (0..<before).map { "x\($0)-yy" } + [range]
        let padding = String(repeating: ", zz", count: 7_000)
        client.defaultHeaders = [("Accept-Language", unknown.joined(separator: ", ") + padding)]
        await #expect(client.get("/tabs/featured").language == code)
    }

    @Test("tab titles and positions are translated; the model's titles stay for English")
    func tabTitles() async throws {
        let client = TestClient(try makeApp().responder)
        client.defaultHeaders = [("Accept-Language", "de")]
        let page = await client.get("/tabs/music")
        #expect(try Self.itemTitle(page, "music") == "Musik")
        let spoken = try page.document.first("nav.tab-bar button[value=music] .tab-position-regular")?.text
        #expect(spoken?.hasSuffix("Tab 2 von 7") == true)
        #expect(page.document.title == "Musik · TabServer Store")
        let english = TestClient(try makeApp().responder)
        #expect(try await Self.itemTitle(english.get("/tabs/music"), "music") == "Music")
    }

    @Test("an explicit choice is kept in the session and beats Accept-Language; auto goes back")
    func explicitChoice() async throws {
        let client = TestClient(try makeApp().responder)
        client.defaultHeaders = [("Accept-Language", "de")]
        let more = await client.get("/more")
        #expect(try more.document.first("form.language-form option[value=ar]")?.text == "العربية")
        var token = try #require(more.csrfToken)
        let chosen = await client.post("/language", form: [("csrf", token), ("lang", "ja")])
        #expect(chosen.status == 303)
        #expect(chosen.location == "/more")
        // The choice stored a session, whose pages carry a token of its own from now on.
        let stored = try await #require(client.get("/more").csrfToken)
        #expect(stored != token)
        await #expect(client.post("/language", form: [("csrf", token), ("lang", "ja")]).status == 403)
        token = stored
        await #expect(client.get("/tabs/featured").language == "ja")
        let chosenOption = try await client.get("/more").document.first("form.language-form option[selected]")
        #expect(chosenOption?.attribute("value") == "ja")
        _ = await client.post("/language", form: [("csrf", token), ("lang", "auto")])
        await #expect(client.get("/tabs/featured").language == "de")
        let bad = await client.post("/language", form: [("csrf", token), ("lang", "xx")])
        #expect(bad.status == 400)
        #expect(try bad.document.first("main code")?.text == "lang", "the field is named")
        await #expect(client.post("/language", form: [("lang", "ar")]).status == 403)
    }

    @Test("adding a language is adding a file; a missing string falls back to English and is logged once")
    func missingStrings() async throws {
        let folder = TestFixtures.temporaryDirectory("locales")
        let english = try String(contentsOfFile: TestFixtures.repositoryRoot + "/Locales/en.json", encoding: .utf8)
        TestFixtures.write(english, to: folder + "/en.json")
        TestFixtures.write(
            #"{"name": "Nederlands", "direction": "ltr", "strings": {"more": "Meer"}, "tabs": {"music": "Muziek"}}"#,
            to: folder + "/nl.json")
        let logPath = folder + "/log.txt"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: logPath))
        let log = LogSink(descriptor: handle.fileDescriptor)
        var configuration = sevenTabConfiguration()
        configuration.localesDirectory = folder
        let app = try buildApplication(configuration, content: DemoCatalog(), log: log)
        log.flush()
        let client = TestClient(app.responder)
        client.defaultHeaders = [("Accept-Language", "nl")]
        let page = await client.get("/more")
        #expect(try Self.itemTitle(page, "more") == "Meer")
        #expect(page.mainText.contains("Edit tabs"), "English fallback")
        _ = await client.get("/more")
        log.flush()
        let logged = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(logged.components(separatedBy: "locale nl has no string 'editTabs'").count == 2, "once")
    }

    @Test("a locale folder without English refuses to start")
    func englishRequired() {
        let folder = TestFixtures.temporaryDirectory("locales")
        TestFixtures.write(#"{"name": "Deutsch", "direction": "ltr", "strings": {}}"#, to: folder + "/de.json")
        var configuration = sevenTabConfiguration()
        configuration.localesDirectory = folder
        #expect {
            _ = try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
        } throws: { error in
            "\(error)".contains("en.json")
        }
    }
}
