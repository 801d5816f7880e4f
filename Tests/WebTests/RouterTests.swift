// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("Router")
struct RouterTests {
    /// What a test can see of a resolution: which route answered and what it captured.
    enum Outcome: Equatable {
        case found(route: String, parameters: [String: String])
        case methodNotAllowed([String])
        case notFound
    }

    /// Each handler answers with an `X-Route` header naming it and the parameters it was
    /// asked about, so a test sees which registration won.
    static func router(_ routes: [(HTTPMethod, String, String)]) -> Router<Int> {
        var router = Router<Int>()
        for (method, pattern, name) in routes {
            router.on(method, pattern) { _, _, context in
                context += 1
                var headers = HTTPHeaders()
                headers.add("X-Route", name)
                return HTTPResponse(status: .ok, headers: headers)
            }
        }
        return router
    }

    static func resolve(
        _ router: Router<Int>, _ method: HTTPMethod, _ path: String, names: [String] = []
    ) throws -> Outcome {
        switch router.resolve(method, path) {
        case .found(let handler, let parameters):
            var context = 0
            let response = try handler(HTTPRequest(method: method, path: path), parameters, &context)
            #expect(context == 1, "the handler gets the context inout")
            var captured: [String: String] = [:]
            for name in names { captured[name] = parameters[name] }
            return .found(route: response.headers["X-Route"] ?? "?", parameters: captured)
        case .methodNotAllowed(let allowed):
            return .methodNotAllowed(allowed.map(\.description))
        case .notFound:
            return .notFound
        }
    }

    @Test("literal paths match exactly")
    func literal() throws {
        let router = Self.router([(.get, "/", "root"), (.get, "/about", "about"), (.get, "/about/team", "team")])
        #expect(try Self.resolve(router, .get, "/") == .found(route: "root", parameters: [:]))
        #expect(try Self.resolve(router, .get, "/about") == .found(route: "about", parameters: [:]))
        #expect(try Self.resolve(router, .get, "/about/team") == .found(route: "team", parameters: [:]))
        #expect(try Self.resolve(router, .get, "/About") == .notFound)
        #expect(try Self.resolve(router, .get, "/about/team/x") == .notFound)
        #expect(try Self.resolve(router, .get, "/abou") == .notFound)
        #expect(try Self.resolve(router, .get, "/aboutteam") == .notFound)
    }

    @Test("{param} captures one segment")
    func parameter() throws {
        let router = Self.router([(.get, "/tabs/{tab}", "tab"), (.get, "/tabs/{tab}/items/{item}", "item")])
        #expect(
            try Self.resolve(router, .get, "/tabs/music", names: ["tab"])
                == .found(route: "tab", parameters: ["tab": "music"]))
        #expect(
            try Self.resolve(router, .get, "/tabs/music/items/12", names: ["tab", "item"])
                == .found(route: "item", parameters: ["tab": "music", "item": "12"]))
        #expect(try Self.resolve(router, .get, "/tabs") == .notFound)
        #expect(try Self.resolve(router, .get, "/tabs/music/items") == .notFound)
        #expect(try Self.resolve(router, .get, "/tabs/music/other/12") == .notFound)
    }

    @Test("unknown parameter names are nil")
    func unknownParameter() throws {
        let router = Self.router([(.get, "/tabs/{tab}", "tab")])
        guard case .found(_, let parameters) = router.resolve(.get, "/tabs/music") else {
            Issue.record("expected a match")
            return
        }
        #expect(parameters["tab"] == "music")
        #expect(parameters["other"] == nil)
        #expect(RouteParameters()["tab"] == nil)
    }

    @Test("{rest*} takes the rest of the path, including nothing")
    func rest() throws {
        let router = Self.router([(.get, "/tabs/{tab}/{location*}", "tab")])
        let names = ["tab", "location"]
        #expect(
            try Self.resolve(router, .get, "/tabs/music", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": ""]))
        #expect(
            try Self.resolve(router, .get, "/tabs/music/albums", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": "albums"]))
        #expect(
            try Self.resolve(router, .get, "/tabs/music/albums/12/tracks", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": "albums/12/tracks"]))
        #expect(try Self.resolve(router, .get, "/tabs") == .notFound)
    }

    @Test("a pattern that is only {rest*} matches every path, even /")
    func restOnly() throws {
        let router = Self.router([(.get, "/{path*}", "all")])
        #expect(try Self.resolve(router, .get, "/", names: ["path"]) == .found(route: "all", parameters: ["path": ""]))
        #expect(
            try Self.resolve(router, .get, "/a/b/c", names: ["path"])
                == .found(route: "all", parameters: ["path": "a/b/c"]))
    }

    @Test("empty segments (// and a trailing /) are ignored, in paths and patterns")
    func emptySegments() throws {
        let router = Self.router([(.get, "/tabs//{tab}/", "tab"), (.get, "/files/{rest*}", "files")])
        #expect(
            try Self.resolve(router, .get, "//tabs///music//", names: ["tab"])
                == .found(route: "tab", parameters: ["tab": "music"]))
        #expect(
            try Self.resolve(router, .get, "/files//a//b/", names: ["rest"])
                == .found(route: "files", parameters: ["rest": "a/b"]))
        #expect(try Self.resolve(router, .get, "") == .notFound)
    }

    @Test("segments of several bytes a character are captured whole, and counts must agree")
    func multibyteSegments() {
        var router = Router<Void>()
        router.get("/tabs/{tab}") { _, _, _ in HTTPResponse(status: .ok) }
        router.get("/tabs/{tab}/{item}") { _, _, _ in HTTPResponse(status: .ok) }
        let cases: [(String, String, String?)] = [
            ("/tabs/müsik", "müsik", nil), ("/tabs/日本/語", "日本", "語"), ("//tabs//ü//", "ü", nil),
        ]
        for (path, tab, item) in cases {
            guard case .found(_, let parameters) = router.resolve(.get, path) else {
                Issue.record("\(path) did not match")
                continue
            }
            #expect(parameters["tab"] == tab)
            #expect(parameters["item"] == item)
        }
        if case .notFound = router.resolve(.get, "/tabs/a/b/c") {
        } else {
            Issue.record("three segments matched a pattern of two or three")
        }
    }

    @Test("HEAD is answered by the GET route")
    func headUsesGet() throws {
        let router = Self.router([(.get, "/page/{id}", "page-get"), (.post, "/page/{id}", "page-post")])
        #expect(
            try Self.resolve(router, .head, "/page/7", names: ["id"])
                == .found(route: "page-get", parameters: ["id": "7"]))
    }

    @Test("an explicitly registered HEAD route answers HEAD and is allowed once")
    func explicitHead() throws {
        let router = Self.router([(.head, "/probe", "probe-head"), (.get, "/probe", "probe-get")])
        #expect(try Self.resolve(router, .head, "/probe") == .found(route: "probe-head", parameters: [:]))
        #expect(try Self.resolve(router, .get, "/probe") == .found(route: "probe-get", parameters: [:]))
        guard case .methodNotAllowed(let allowed) = router.resolve(.post, "/probe") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed.filter { $0 == .head }.count == 1)
        #expect(Set(allowed.map(\.description)) == ["GET", "HEAD"])
    }

    @Test("a path known for other methods gives 405 with those methods, HEAD included with GET")
    func methodNotAllowed() throws {
        let router = Self.router([
            (.get, "/tabs/{tab}", "show"), (.post, "/tabs/{tab}", "select"), (.post, "/tabs/{tab}", "again"),
            (.delete, "/other", "other"),
        ])
        #expect(try Self.resolve(router, .put, "/tabs/music") == .methodNotAllowed(["GET", "HEAD", "POST"]))
        #expect(try Self.resolve(router, .delete, "/tabs/music") == .methodNotAllowed(["GET", "HEAD", "POST"]))
        #expect(try Self.resolve(router, .get, "/other") == .methodNotAllowed(["DELETE"]))
        #expect(try Self.resolve(router, .head, "/other") == .methodNotAllowed(["DELETE"]))
    }

    @Test("405 without a GET route does not list HEAD")
    func methodNotAllowedWithoutGet() throws {
        let router = Self.router([(.post, "/select", "select")])
        #expect(try Self.resolve(router, .get, "/select") == .methodNotAllowed(["POST"]))
        #expect(try Self.resolve(router, .head, "/select") == .methodNotAllowed(["POST"]))
    }

    @Test("an unknown path is notFound, also on an empty router")
    func notFound() throws {
        #expect(try Self.resolve(Router<Int>(), .get, "/") == .notFound)
        let router = Self.router([(.get, "/a", "a")])
        #expect(try Self.resolve(router, .get, "/b") == .notFound)
        #expect(try Self.resolve(router, .post, "/b") == .notFound)
    }

    @Test("the first matching registration wins")
    func precedence() throws {
        let literalFirst = Self.router([(.get, "/tabs/more", "more"), (.get, "/tabs/{tab}", "tab")])
        #expect(try Self.resolve(literalFirst, .get, "/tabs/more") == .found(route: "more", parameters: [:]))
        #expect(try Self.resolve(literalFirst, .get, "/tabs/music") == .found(route: "tab", parameters: [:]))

        let parameterFirst = Self.router([(.get, "/tabs/{tab}", "tab"), (.get, "/tabs/more", "more")])
        #expect(try Self.resolve(parameterFirst, .get, "/tabs/more") == .found(route: "tab", parameters: [:]))

        let twice = Self.router([(.post, "/x", "first"), (.post, "/x", "second")])
        #expect(try Self.resolve(twice, .post, "/x") == .found(route: "first", parameters: [:]))
    }

    @Test("a route for another method does not shadow a later one for this method")
    func methodThenPattern() throws {
        let router = Self.router([(.post, "/tabs/{tab}", "select"), (.get, "/tabs/{tab}", "show")])
        #expect(try Self.resolve(router, .get, "/tabs/music") == .found(route: "show", parameters: [:]))
        #expect(try Self.resolve(router, .post, "/tabs/music") == .found(route: "select", parameters: [:]))
    }

    @Test("methods outside the known cases route by their token")
    func otherMethod() throws {
        let router = Self.router([(.other("PROPFIND"), "/dav", "dav")])
        #expect(try Self.resolve(router, HTTPMethod("PROPFIND"), "/dav") == .found(route: "dav", parameters: [:]))
        #expect(try Self.resolve(router, .get, "/dav") == .methodNotAllowed(["PROPFIND"]))
    }

    @Test("handler errors propagate as HTTPError")
    func handlerThrows() {
        var router = Router<Int>()
        router.post("/select") { (request, _, _) throws(HTTPError) in
            _ = try request.requiredField("tab")
            return HTTPResponse(status: .seeOther)
        }
        guard case .found(let handler, let parameters) = router.resolve(.post, "/select") else {
            Issue.record("expected a match")
            return
        }
        var context = 0
        let error = #expect(throws: HTTPError.self) {
            try handler(HTTPRequest(method: .post, path: "/select"), parameters, &context)
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "tab")
    }

    @Test("the matched pattern is reported, one label per distinct pattern")
    func matchedPattern() {
        var router = Router<Int>()
        router.get("/tabs/{tab}") { _, _, _ in HTTPResponse(status: .ok) }
        router.get("/more/edit") { _, _, _ in HTTPResponse(status: .ok) }
        router.post("/more/edit") { _, _, _ in HTTPResponse(status: .seeOther) }
        #expect(router.patterns == ["/tabs/{tab}", "/more/edit"])
        #expect(router.resolveWithPattern(.get, "/tabs/music").pattern == 0)
        #expect(router.resolveWithPattern(.post, "/more/edit").pattern == 1)
        #expect(router.resolveWithPattern(.post, "/tabs/music").pattern == 0)
        #expect(router.resolveWithPattern(.get, "/nowhere").pattern == nil)
    }
}
