// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

/// An app's own session store, written against the public `SessionStore` protocol alone
/// (`FolderSessionStore`, a file per session), registered for its URL scheme and named by
/// `--sessions` like a built-in one: the app serves from it over a real socket.
@Suite("An app's own session store, opened by its URL scheme")
struct AppSessionStoreTests {
    /// The demo app with `--sessions folder:FOLDER`, the folder store registered for the scheme.
    static func app(folder: String) throws -> Application {
        let parsed = try AppConfiguration.parse(
            arguments: ["--sessions", "folder:" + folder], environment: [:], base: sevenTabConfiguration())
        guard case .run(let configuration) = parsed else { throw ConfigurationError("no configuration") }
        let app = Application(configuration: configuration, log: quietLog)
        app.content(DemoCatalog())
        app.sessionStores(scheme: "folder") { configuration, opening throws(SessionStoreError) in
            (try FolderSessionStore(folder: configuration.location, lifetime: opening.lifetime), nil)
        }
        try app.build()
        return app
    }

    /// Where `/` sends `visitor` (their cookies) on a new instance serving from `folder`.
    static func home(of visitor: TestClient, servedFrom folder: String) async throws -> String? {
        let server = try Self.app(folder: folder).start()
        defer { server.shutdown() }
        let returning = TestClient(port: server.port)
        returning.cookies = visitor.cookies
        return await returning.get("/").location
    }

    @Test("--sessions folder:PATH opens the app's store; taps are kept there, and a new instance finds them")
    func servesFromTheFolder() async throws {
        let folder = TestFixtures.temporaryDirectory("app-store") + "/sessions"
        let first = try Self.app(folder: folder)
        #expect(first.store is FolderSessionStore)
        let server = try first.start()
        let visitor = TestClient(port: server.port)
        let token = try #require(await visitor.get("/tabs/featured").csrfToken)
        #expect(await visitor.post("/select", form: [("csrf", token), ("tab", "music")]).status == 303)
        #expect(await visitor.get("/").location == "/tabs/music")
        let next = try #require(await visitor.get("/tabs/music").csrfToken)
        #expect(await visitor.post("/select", form: [("csrf", next), ("tab", "movies")]).status == 303)
        #expect(await visitor.get("/readyz").status == 200)
        server.shutdown()

        // A new instance on the same folder: the visitor's choice is there.
        #expect(try await Self.home(of: visitor, servedFrom: folder) == "/tabs/movies")
    }

    @Test("an app's store that backs itself up answers POST /admin/backup for the operator's token")
    func backsUp() async throws {
        let folder = TestFixtures.temporaryDirectory("app-store-backup") + "/sessions"
        let app = try Self.app(folder: folder)
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = TestClient(port: server.port)
        let token = try #require(await visitor.get("/tabs/featured").csrfToken)
        #expect(await visitor.post("/select", form: [("csrf", token), ("tab", "music")]).status == 303)
        let operatorToken = try String(contentsOfFile: folder + ".admin-token", encoding: .utf8)
        let destination = TestFixtures.temporaryDirectory("app-store-copy") + "/copy"
        let operatorClient = TestClient(port: server.port)
        let refused = await operatorClient.post("/admin/backup?to=" + destination, form: [])
        #expect(refused.status == 403)
        let answer = await operatorClient.post(
            "/admin/backup?to=" + destination, form: [], headers: [("Authorization", "Bearer " + operatorToken)])
        #expect(answer.status == 200, "\(answer.body)")
        let copied = try FileManager.default.contentsOfDirectory(atPath: destination)
        #expect(copied.count == 1 && copied.allSatisfy { $0.hasSuffix(".session") }, "\(copied)")

        // The copy is a store: a new instance on it finds the visitor's tab.
        #expect(try await Self.home(of: visitor, servedFrom: destination) == "/tabs/music")
    }

    @Test("a scheme no opener is registered for stops start-up, naming it and what the app opens")
    func unknownScheme() throws {
        let parsed = try AppConfiguration.parse(
            arguments: ["--sessions", "nosuch:/var/x"], environment: [:], base: sevenTabConfiguration())
        guard case .run(let configuration) = parsed else { throw ConfigurationError("no configuration") }
        let refusal = #expect(throws: StartupError.self) {
            try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
        }
        let message = refusal.map { "\($0)" } ?? ""
        #expect(message.contains("no session store is registered for the scheme 'nosuch'"), "\(message)")
        #expect(message.contains("memory, sqlite"), "\(message)")
        // Not a URL at all is refused by the flag itself.
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--sessions", "bogus"], environment: [:])
        }
    }
}
