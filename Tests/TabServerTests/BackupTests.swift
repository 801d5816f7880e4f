// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Online backup of the SQLite store", .serialized)
struct BackupTests {
    static var binary: String { TestFixtures.repositoryRoot + "/.build/debug/tabserver" }

    @Test(
        "tabserver backup under write load: a new server on the copy has every session acknowledged before the backup began"
    )
    func backupUnderLoad() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the package first")
        let folder = TestFixtures.temporaryDirectory("backup")
        let storePath = folder + "/data/sessions.sqlite"
        let app = try makeApp { $0.sessions = .sqlite(path: storePath) }
        let server = try app.start()
        defer { server.shutdown() }

        // Two visitors' worth of writers: each GET of a tab creates a session and is
        // answered once that session is committed.
        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let writers = DispatchGroup()
        let port = server.port
        for _ in 0..<2 {
            DispatchQueue.global().async(group: writers) {
                while !stop.load(ordering: .relaxed) {
                    guard let connection = RawHTTPConnection(port: port) else { continue }
                    for _ in 0..<50 where !stop.load(ordering: .relaxed) {
                        connection.send("GET /tabs/tv HTTP/1.1\r\nHost: t\r\n\r\n")
                        guard let response = connection.readResponse(), response.status == 200,
                            let cookie = response.headers["set-cookie"]?.split(separator: ";").first
                        else { break }
                        acknowledged.withLock { $0.append(String(cookie)) }
                    }
                }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            writers.wait()
        }
        #expect(waitUntil(.seconds(20)) { acknowledged.withLock { $0.count } >= 400 }, "the writers got going")

        let before = acknowledged.withLock { $0 }
        let destination = folder + "/backups/copy.sqlite"
        try FileManager.default.createDirectory(atPath: folder + "/backups", withIntermediateDirectories: true)
        let command = try ChildProcess(
            [Self.binary, "backup", destination, "--port", "\(port)", "--sessions", "sqlite:\(storePath)"],
            standardOutput: .pipe)
        let said = command.readAllOutput()
        #expect(command.waitForExit(.seconds(30)) == .exited(0), "\(said)")
        #expect(said.contains("written to \(destination)"), "\(said)")
        let atEnd = acknowledged.withLock { $0.count }
        // Writes go on after the copy, on the same store.
        #expect(waitUntil(.seconds(10)) { acknowledged.withLock { $0.count } >= atEnd + 100 }, "writes went on")
        stop.store(true, ordering: .relaxed)
        writers.wait()
        server.shutdown()

        // Restore: the copy becomes another server's store file.
        let restoredPath = TestFixtures.temporaryDirectory("restored") + "/sessions.sqlite"
        try FileManager.default.copyItem(atPath: destination, toPath: restoredPath)
        let restored = try makeApp { $0.sessions = .sqlite(path: restoredPath) }
        func home(_ cookie: String?) async -> String? {
            var headers = HTTPHeaders()
            if let cookie { headers.add("Cookie", cookie) }
            return await restored.responder.response(for: HTTPRequest(method: .get, path: "/", headers: headers))
                .headers[
                    "location"]
        }
        #expect(await home(nil) != "/tabs/tv", "a visitor without a session is not sent to TV: the check can fail")
        var missing: [String] = []
        for cookie in before where await home(cookie) != "/tabs/tv" { missing.append(cookie) }
        #expect(
            missing.isEmpty, "\(missing.count) of \(before.count) sessions acknowledged before the backup are missing")
    }

    @Test("the backup request is refused without the token, when relayed by a proxy, and for GET")
    func refusals() async throws {
        let folder = TestFixtures.temporaryDirectory("backup-refusals")
        let storePath = folder + "/sessions.sqlite"
        let app = try makeApp { $0.sessions = .sqlite(path: storePath) }
        let token = try String(contentsOfFile: storePath + ".admin-token", encoding: .utf8)
        let attributes = try FileManager.default.attributesOfItem(atPath: storePath + ".admin-token")
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "only the server's user reads the token")
        let destination = folder + "/copy.sqlite"
        func post(_ headers: [(String, String)], method: HTTPMethod = .post, peer: String = "127.0.0.1") async -> Int {
            var fields = HTTPHeaders()
            for (name, value) in headers { fields.add(name, value) }
            return await app.responder.response(
                for: HTTPRequest(
                    method: method, path: "/admin/backup", query: [("to", destination)], headers: fields,
                    remoteAddress: peer)
            ).status.code
        }
        await #expect(post([]) == 403)
        await #expect(post([("Authorization", "Bearer wrong")]) == 403)
        await #expect(post([("Authorization", "Bearer \(token)"), ("X-Forwarded-For", "203.0.113.9")]) == 403)
        await #expect(post([("Authorization", "Bearer \(token)")], peer: "203.0.113.9") == 403)
        await #expect(post([("Authorization", "Bearer \(token)")], method: .get) == 405)
        #expect(!FileManager.default.fileExists(atPath: destination))
        await #expect(post([("Authorization", "Bearer \(token)")]) == 200)
        #expect(FileManager.default.fileExists(atPath: destination))
    }
}
