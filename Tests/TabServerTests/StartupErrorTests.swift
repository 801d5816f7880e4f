// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

/// A refusal to start says what could not be set up, the file at fault and why, and keeps
/// the error underneath: an app can tell a bad `--sessions` from a bad template.
@Suite("Start-up errors are typed")
struct StartupErrorTests {
    func refusal(_ configure: (inout AppConfiguration) -> Void) -> StartupError? {
        startupRefusal(configure)
    }

    @Test("a tab definition that does not parse: .tabs, its path, the parser's error underneath")
    func tabs() throws {
        let path = TestFixtures.temporaryDirectory("bad-tabs") + "/tabs.json"
        TestFixtures.write("{\"tabs\": [", to: path)
        let error = try #require(refusal { $0.tabsFile = path })
        #expect(error.cause == .tabs)
        #expect(error.path == path)
        #expect(error.underlying != nil)
        #expect(error.message == "\(path): \(error.reason)")
    }

    @Test("each part names its cause: templates, locales, public files, sessions")
    func causes() throws {
        let templates = TestFixtures.copyOfTemplates()
        TestFixtures.write("{{#open}}\n", to: templates + "/tabs/music.mustache")
        #expect(refusal { $0.templatesDirectory = templates }?.cause == .templates)
        let locales = TestFixtures.temporaryDirectory("no-locales") + "/missing"
        let localeError = try #require(refusal { $0.localesDirectory = locales })
        #expect(localeError.cause == .locales)
        #expect(localeError.path == locales)
        #expect(refusal { $0.publicDirectory = TestFixtures.temporaryDirectory("empty-public") }?.cause == .publicFiles)
        #expect(refusal { $0.sessions = .memory(capacity: 0) }?.cause == .sessions)
        #expect(refusal { $0.sessionIdleTimeout = .zero }?.cause == .configuration)
    }

    @Test("an app's own refusal is .app, its message as given; equal errors compare equal")
    func appsOwn() {
        let error = StartupError("notes database data/x.sqlite: cannot open")
        #expect(error.cause == .app)
        #expect(error.path == nil)
        #expect(error.description == "notes database data/x.sqlite: cannot open")
        #expect(error == StartupError(.app, "notes database data/x.sqlite: cannot open"))
        #expect(error != StartupError(.sessions, "notes database data/x.sqlite: cannot open"))
    }
}
