// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

@testable import TabServerCommand

#if canImport(Glibc)
    import Glibc
#endif

/// A request whose client went away: its task is cancelled (the engine cancels it on a
/// reset; here the test cancels the client's task), and what the handler changed before
/// the commit is dropped, not logged as a failure and not run again.
@Suite("A cancelled request")
struct CancellationTests {
    struct Mark: VisitorValue {
        static let key = "test.mark"
        var text: String
    }

    /// An app whose `POST /api/slow` marks the visitor, then waits until cancelled
    /// (`throwing`: rethrowing `CancellationError`; else swallowing it and answering).
    final class SlowApp: Sendable {
        /// How many times the slow route ran.
        final class Runs: Sendable {
            let count = Atomic<Int>(0)
        }

        let app: Application
        let runs = Runs()
        /// Lets the blocking variant's work end (it waits for this, at most 30 s).
        final class Release: Sendable {
            let given = Atomic<Bool>(false)
            /// Set when the blocking work has ended.
            let workEnded = Atomic<Bool>(false)
        }

        let released = Release()
        let logPath = TestFixtures.temporaryDirectory("cancel-log") + "/server.log"
        let log: LogSink

        init() throws {
            log = LogSink(descriptor: open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
            var configuration = TestFixtures.configuration()
            configuration.accessLog = false
            app = Application(configuration: configuration, log: log)
            app.content(DemoCatalog())
            app.router.post("/api/mark") { _, context in
                context.setVisitorValue(Mark(text: "first"))
                return HTTPResponse.text("marked")
            }
            app.router.get("/api/mark") { _, context in
                HTTPResponse.text(context.visitorValue(Mark.self)?.text ?? "none")
            }
            app.router.post("/api/slow/{how}") { [runs, released] _, context in
                runs.count.add(1, ordering: .relaxed)
                context.setVisitorValue(Mark(text: "written"))
                switch context.parameters["how"] {
                case "throwing":
                    try await Task.sleep(for: .seconds(120))
                case "blocking":
                    try await context.blocking {
                        for _ in 0..<3_000 where !released.given.load(ordering: .relaxed) { usleep(10_000) }
                        released.workEnded.store(true, ordering: .relaxed)
                    }
                default:
                    try? await Task.sleep(for: .seconds(120))
                }
                return HTTPResponse.text("done")
            }
        }

        var logged: String {
            log.flush()
            return (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        }
    }

    @Test(
        "a handler cancelled before its commit writes nothing, is not run again and logs no failure",
        arguments: ["throwing", "swallowing", "blocking"])
    func writesNothing(how: String) async throws {
        let slow = try SlowApp()
        let client = try TestClient(slow.app)
        await #expect(client.post("/api/mark", json: ["a": 1]).status == 200)
        await #expect(client.get("/api/mark").body == "first")
        let cookie = client.cookies["tabserver_session"]
        // The same browser, in a task of its own to cancel.
        let app = slow.app
        let request = Task {
            let browser = TestClient(app.responder)
            browser.cookies["tabserver_session"] = cookie
            return await browser.post("/api/slow/\(how)", json: ["a": 1]).headers["set-cookie"]
        }
        #expect(
            // The async wait: a blocking one would hold a thread the request needs.
            await waitUntil(.seconds(10)) { () async in slow.runs.count.load(ordering: .relaxed) == 1 },
            "runs: \(slow.runs.count.load(ordering: .relaxed))")
        request.cancel()
        #expect(await request.value == nil, "no cookie set")
        if how == "blocking" {
            let ended = slow.released.workEnded.load(ordering: .relaxed)
            #expect(!ended, "the handler stopped waiting for its work")
        }
        #expect(slow.runs.count.load(ordering: .relaxed) == 1, "run once, not again")
        await #expect(client.get("/api/mark").body == "first", "the cancelled handler's change was dropped")
        #expect(client.cookies["tabserver_session"] == cookie)
        #expect(!slow.logged.contains("failed"), "\(slow.logged)")
        slow.released.given.store(true, ordering: .relaxed)
    }
}
