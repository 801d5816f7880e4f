// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

/// The context the router's tests hand their handlers.
struct TestContext: RouterContext {
    var parameters = RouteParameters()
}

@Suite("Router")
struct RouterTests {
    /// What a test can see of a resolution: which route answered and what it captured.
    enum Outcome: Equatable {
        case found(route: String, parameters: [String: String])
        case methodNotAllowed([String])
        case notFound
    }

    /// Each handler answers with an `X-Route` header naming it, so a test sees which
    /// registration won.
    static func router(_ routes: [(HTTPMethod, String, String)]) -> Router<TestContext> {
        let router = Router<TestContext>()
        for (method, pattern, name) in routes {
            router.on(method, pattern) { _, _ in
                var headers = HTTPHeaders()
                headers.add("X-Route", name)
                return HTTPResponse(status: .ok, headers: headers)
            }
        }
        return router
    }

    static func resolve(
        _ router: Router<TestContext>, _ method: HTTPMethod, _ path: String, names: [String] = []
    ) async throws -> Outcome {
        switch router.table().resolve(method, path) {
        case .found(let match):
            let response = try await match.handler(
                HTTPRequest(method: method, path: path), TestContext(parameters: match.parameters))
            var captured: [String: String] = [:]
            for name in names { captured[name] = match.parameters[name] }
            return .found(route: response.headers["X-Route"] ?? "?", parameters: captured)
        case .methodNotAllowed(let allowed, _):
            return .methodNotAllowed(allowed.map(\.description))
        case .notFound:
            return .notFound
        }
    }

    /// The parameters a path resolves to, nil when it resolves to no route.
    static func parameters(_ router: Router<TestContext>, _ method: HTTPMethod, _ path: String) -> RouteParameters? {
        guard case .found(let match) = router.table().resolve(method, path) else { return nil }
        return match.parameters
    }

    @Test("literal paths match exactly")
    func literal() async throws {
        let router = Self.router([(.get, "/", "root"), (.get, "/about", "about"), (.get, "/about/team", "team")])
        #expect(try await Self.resolve(router, .get, "/") == .found(route: "root", parameters: [:]))
        #expect(try await Self.resolve(router, .get, "/about") == .found(route: "about", parameters: [:]))
        #expect(try await Self.resolve(router, .get, "/about/team") == .found(route: "team", parameters: [:]))
        #expect(try await Self.resolve(router, .get, "/About") == .notFound)
        #expect(try await Self.resolve(router, .get, "/about/team/x") == .notFound)
        #expect(try await Self.resolve(router, .get, "/abou") == .notFound)
        #expect(try await Self.resolve(router, .get, "/aboutteam") == .notFound)
    }

    @Test("{param} captures one segment")
    func parameter() async throws {
        let router = Self.router([(.get, "/tabs/{tab}", "tab"), (.get, "/tabs/{tab}/items/{item}", "item")])
        #expect(
            try await Self.resolve(router, .get, "/tabs/music", names: ["tab"])
                == .found(route: "tab", parameters: ["tab": "music"]))
        #expect(
            try await Self.resolve(router, .get, "/tabs/music/items/12", names: ["tab", "item"])
                == .found(route: "item", parameters: ["tab": "music", "item": "12"]))
        #expect(try await Self.resolve(router, .get, "/tabs") == .notFound)
        #expect(try await Self.resolve(router, .get, "/tabs/music/items") == .notFound)
        #expect(try await Self.resolve(router, .get, "/tabs/music/other/12") == .notFound)
    }

    @Test("unknown parameter names are nil")
    func unknownParameter() async throws {
        let router = Self.router([(.get, "/tabs/{tab}", "tab")])
        guard let parameters = Self.parameters(router, .get, "/tabs/music") else {
            Issue.record("expected a match")
            return
        }
        #expect(parameters["tab"] == "music")
        #expect(parameters["other"] == nil)
        #expect(RouteParameters()["tab"] == nil)
    }

    @Test("{rest*} takes the rest of the path, including nothing")
    func rest() async throws {
        let router = Self.router([(.get, "/tabs/{tab}/{location*}", "tab")])
        let names = ["tab", "location"]
        #expect(
            try await Self.resolve(router, .get, "/tabs/music", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": ""]))
        #expect(
            try await Self.resolve(router, .get, "/tabs/music/albums", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": "albums"]))
        #expect(
            try await Self.resolve(router, .get, "/tabs/music/albums/12/tracks", names: names)
                == .found(route: "tab", parameters: ["tab": "music", "location": "albums/12/tracks"]))
        #expect(try await Self.resolve(router, .get, "/tabs") == .notFound)
    }

    @Test("a pattern that is only {rest*} matches every path, even /")
    func restOnly() async throws {
        let router = Self.router([(.get, "/{path*}", "all")])
        #expect(
            try await Self.resolve(router, .get, "/", names: ["path"]) == .found(route: "all", parameters: ["path": ""])
        )
        #expect(
            try await Self.resolve(router, .get, "/a/b/c", names: ["path"])
                == .found(route: "all", parameters: ["path": "a/b/c"]))
    }

    @Test("empty segments (// and a trailing /) are ignored, in paths and patterns")
    func emptySegments() async throws {
        let router = Self.router([(.get, "/tabs//{tab}/", "tab"), (.get, "/files/{rest*}", "files")])
        #expect(
            try await Self.resolve(router, .get, "//tabs///music//", names: ["tab"])
                == .found(route: "tab", parameters: ["tab": "music"]))
        #expect(
            try await Self.resolve(router, .get, "/files//a//b/", names: ["rest"])
                == .found(route: "files", parameters: ["rest": "a/b"]))
        #expect(try await Self.resolve(router, .get, "") == .notFound)
    }

    @Test("segments of several bytes a character are captured whole, and counts must agree")
    func multibyteSegments() {
        let router = Self.router([(.get, "/tabs/{tab}", "tab"), (.get, "/tabs/{tab}/{item}", "item")])
        let cases: [(String, String, String?)] = [
            ("/tabs/müsik", "müsik", nil), ("/tabs/日本/語", "日本", "語"), ("//tabs//ü//", "ü", nil),
        ]
        for (path, tab, item) in cases {
            guard let parameters = Self.parameters(router, .get, path) else {
                Issue.record("\(path) did not match")
                continue
            }
            #expect(parameters["tab"] == tab)
            #expect(parameters["item"] == item)
        }
        if case .notFound = router.table().resolve(.get, "/tabs/a/b/c") {
        } else {
            Issue.record("three segments matched a pattern of two or three")
        }
    }

    @Test("HEAD is answered by the GET route")
    func headUsesGet() async throws {
        let router = Self.router([(.get, "/page/{id}", "page-get"), (.post, "/page/{id}", "page-post")])
        #expect(
            try await Self.resolve(router, .head, "/page/7", names: ["id"])
                == .found(route: "page-get", parameters: ["id": "7"]))
    }

    @Test("an explicitly registered HEAD route answers HEAD and is allowed once")
    func explicitHead() async throws {
        let router = Self.router([(.head, "/probe", "probe-head"), (.get, "/probe", "probe-get")])
        #expect(try await Self.resolve(router, .head, "/probe") == .found(route: "probe-head", parameters: [:]))
        #expect(try await Self.resolve(router, .get, "/probe") == .found(route: "probe-get", parameters: [:]))
        guard case .methodNotAllowed(let allowed, _) = router.table().resolve(.post, "/probe") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed.filter { $0 == .head }.count == 1)
        #expect(Set(allowed.map(\.description)) == ["GET", "HEAD"])
    }

    @Test("a path known for other methods gives 405 with those methods, HEAD included with GET")
    func methodNotAllowed() async throws {
        let router = Self.router([
            (.get, "/tabs/{tab}", "show"), (.post, "/tabs/{tab}", "select"), (.post, "/tabs/{tab}", "again"),
            (.delete, "/other", "other"),
        ])
        #expect(try await Self.resolve(router, .put, "/tabs/music") == .methodNotAllowed(["GET", "HEAD", "POST"]))
        #expect(try await Self.resolve(router, .delete, "/tabs/music") == .methodNotAllowed(["GET", "HEAD", "POST"]))
        #expect(try await Self.resolve(router, .get, "/other") == .methodNotAllowed(["DELETE"]))
        #expect(try await Self.resolve(router, .head, "/other") == .methodNotAllowed(["DELETE"]))
    }

    @Test("405 without a GET route does not list HEAD")
    func methodNotAllowedWithoutGet() async throws {
        let router = Self.router([(.post, "/select", "select")])
        #expect(try await Self.resolve(router, .get, "/select") == .methodNotAllowed(["POST"]))
        #expect(try await Self.resolve(router, .head, "/select") == .methodNotAllowed(["POST"]))
    }

    @Test("an unknown path is notFound, also on an empty router")
    func notFound() async throws {
        #expect(try await Self.resolve(Router<TestContext>(), .get, "/") == .notFound)
        let router = Self.router([(.get, "/a", "a")])
        #expect(try await Self.resolve(router, .get, "/b") == .notFound)
        #expect(try await Self.resolve(router, .post, "/b") == .notFound)
    }

    @Test("the most specific pattern wins, whatever the order; of equal ones the first added")
    func precedence() async throws {
        let literalFirst = Self.router([(.get, "/tabs/more", "more"), (.get, "/tabs/{tab}", "tab")])
        #expect(try await Self.resolve(literalFirst, .get, "/tabs/more") == .found(route: "more", parameters: [:]))
        #expect(try await Self.resolve(literalFirst, .get, "/tabs/music") == .found(route: "tab", parameters: [:]))

        let parameterFirst = Self.router([(.get, "/tabs/{tab}", "tab"), (.get, "/tabs/more", "more")])
        #expect(try await Self.resolve(parameterFirst, .get, "/tabs/more") == .found(route: "more", parameters: [:]))

        let restFirst = Self.router([(.get, "/tabs/{tab}/{rest*}", "rest"), (.get, "/tabs/{tab}/edit", "edit")])
        #expect(try await Self.resolve(restFirst, .get, "/tabs/a/edit") == .found(route: "edit", parameters: [:]))
        #expect(try await Self.resolve(restFirst, .get, "/tabs/a/other") == .found(route: "rest", parameters: [:]))

        let twice = Self.router([(.post, "/x", "first"), (.post, "/x", "second")])
        #expect(try await Self.resolve(twice, .post, "/x") == .found(route: "first", parameters: [:]))
    }

    @Test("a route for another method does not shadow a later one for this method")
    func methodThenPattern() async throws {
        let router = Self.router([(.post, "/tabs/{tab}", "select"), (.get, "/tabs/{tab}", "show")])
        #expect(try await Self.resolve(router, .get, "/tabs/music") == .found(route: "show", parameters: [:]))
        #expect(try await Self.resolve(router, .post, "/tabs/music") == .found(route: "select", parameters: [:]))
    }

    @Test("methods outside the known cases route by their token")
    func otherMethod() async throws {
        let router = Self.router([(.other("PROPFIND"), "/dav", "dav")])
        #expect(try await Self.resolve(router, HTTPMethod("PROPFIND"), "/dav") == .found(route: "dav", parameters: [:]))
        #expect(try await Self.resolve(router, .get, "/dav") == .methodNotAllowed(["PROPFIND"]))
    }

    @Test("handler errors propagate as they were thrown")
    func handlerThrows() async {
        let router = Router<TestContext>()
        router.post("/select") { request, _ in
            _ = try request.requiredField("tab")
            return HTTPResponse(status: .seeOther)
        }
        guard case .found(let match) = router.table().resolve(.post, "/select") else {
            Issue.record("expected a match")
            return
        }
        let error = await #expect(throws: HTTPError.self) {
            try await match.handler(HTTPRequest(method: .post, path: "/select"), TestContext())
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "tab")
    }

    @Test("the matched pattern is reported, one label per distinct pattern")
    func matchedPattern() {
        let router = Self.router([
            (.get, "/tabs/{tab}", "a"), (.get, "/more/edit", "b"), (.post, "/more/edit", "c"),
        ])
        let table = router.table()
        #expect(table.labels == ["/tabs/{tab}", "/more/edit"])
        guard case .found(let get) = table.resolve(.get, "/tabs/music"),
            case .found(let post) = table.resolve(.post, "/more/edit"),
            case .methodNotAllowed(_, let refused) = table.resolve(.post, "/tabs/music")
        else {
            Issue.record("expected matches")
            return
        }
        #expect(get.label == 0)
        #expect(post.label == 1)
        #expect(refused == 0)
        if case .notFound = table.resolve(.get, "/nowhere") {} else { Issue.record("expected no match") }
    }

    @Test("typed parameters: a value of the wrong type is a 400 naming the parameter")
    func typedParameters() async throws {
        let router = Router<TestContext>()
        router.get("/api/items/{index}") { _, context in
            HTTPResponse.text("item \(try context.parameters.require("index", as: Int.self))")
        }
        let table = router.table()
        guard case .found(let good) = table.resolve(.get, "/api/items/7"),
            case .found(let bad) = table.resolve(.get, "/api/items/seven")
        else {
            Issue.record("expected matches")
            return
        }
        let response = try await good.handler(
            HTTPRequest(method: .get, path: "/"), TestContext(parameters: good.parameters))
        #expect(response.body == .bytes(Array("item 7".utf8)))
        let error = await #expect(throws: HTTPError.self) {
            try await bad.handler(HTTPRequest(method: .get, path: "/"), TestContext(parameters: bad.parameters))
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "index")
        #expect(error?.message.contains("whole number") == true)
    }

    @Test("groups share a prefix and their middleware, for their routes only; any Encodable answers as JSON")
    func groups() async throws {
        struct Tag: RouterMiddleware {
            let name: String
            func handle(
                _ request: HTTPRequest, context: TestContext,
                next: (HTTPRequest, TestContext) async throws -> HTTPResponse
            ) async throws -> HTTPResponse {
                var response = try await next(request, context)
                response.headers.add("X-Tag", name)
                return response
            }
        }
        struct Item: Codable, Equatable { let id: Int }
        let router = Router<TestContext>()
        let api = router.group("/api/").add(middleware: Tag(name: "api"))
        api.get("items") { _, _ in [Item(id: 1), Item(id: 2)] }
        api.group("admin").add(middleware: Tag(name: "admin")).post("reset") { _, _ in HTTPResponse(status: .noContent)
        }
        router.get("/plain") { _, _ in HTTPResponse.text("plain") }
        let table = router.table()
        func run(_ method: HTTPMethod, _ path: String) async throws -> HTTPResponse {
            guard case .found(let match) = table.resolve(method, path) else { throw HTTPError.notFound() }
            let request = HTTPRequest(method: method, path: path)
            let recover: (any Error, HTTPRequest, TestContext) -> HTTPResponse = { _, _, _ in
                HTTPResponse(status: .internalServerError)
            }
            return await match.middleware.run(request, TestContext(), recover: recover) { request, context in
                try await match.handler(request, context)
            }
        }
        let items = try await run(.get, "/api/items")
        #expect(items.headers["content-type"] == "application/json")
        #expect(items.headers.values("x-tag") == ["api"])
        #expect(items.body == .bytes(Array(#"[{"id":1},{"id":2}]"#.utf8)))
        #expect(try await run(.post, "/api/admin/reset").headers.values("x-tag") == ["admin", "api"])
        #expect(try await run(.get, "/plain").headers["x-tag"] == nil)
    }
}
