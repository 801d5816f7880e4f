// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Values a library user can pass that used to stop the process with a precondition:
/// each is now either corrected (and documented) or refused with an error.
@Suite("The public API does not trap on odd values")
struct PublicAPIEdgeTests {
    @Test("an unknown static file gets its plain path, not a crash")
    func unknownStaticFile() throws {
        let files = try StaticFiles(files: ["a.txt": Array("hi".utf8)])
        #expect(files.url(for: "missing.css", prefix: "/app") == "/app/missing.css")
        #expect(files.url(for: "a.txt").hasPrefix("/a.txt?v="))
    }

    @Test("a memory store with capacity 0 holds one session")
    func memoryCapacity() throws {
        let store = MemorySessionStore(capacity: 0)
        #expect(store.capacity == 1)
        let session = Session.new(now: 100)
        store.insert(session)
        #expect(store.load(session.id, now: 100)?.id == session.id)
    }

    /// A context for a router tested alone.
    struct RequestContextStandIn: RouterContext {
        var parameters = RouteParameters()
    }

    @Test("a rest parameter that is not last matches one segment")
    func restParameterInTheMiddle() async {
        let router = Router<RequestContextStandIn>()
        router.get("/files/{path*}/raw") { _, context in HTTPResponse.text(context.parameters["path"] ?? "-") }
        let table = router.table()
        guard case .found(let match) = table.resolve(.get, "/files/readme/raw") else {
            Issue.record("no match")
            return
        }
        let response = try? await match.handler(
            HTTPRequest(method: .get, path: "/files/readme/raw"), RequestContextStandIn(parameters: match.parameters))
        #expect(response?.body.bytes == Array("readme".utf8))
        if case .found = table.resolve(.get, "/files/a/b/raw") { Issue.record("matched two segments") }
    }
}
