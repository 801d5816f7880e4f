// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerWeb

/// One tab's pages (GET) and actions (POST), each at a pattern below the tab's root:
/// `""` is the root, `"new"`, `"{id}"`, `"{id}/edit"`, `"files/{path*}"`. When several
/// patterns match a location the most specific wins (`new` over `{id}`; see
/// `RoutePattern.specificity`), then the first declared; a page and an action may share
/// one (the form at `new` posts to `new`). What a pattern captured is in
/// `context.parameters`.
///
/// ```swift
/// notes.page("{id}/edit") { _, context in try await form(for: context.parameters.require("id", as: Int.self)) }
/// notes.action("{id}/edit") { request, context in
///     let edit = try request.decode(as: NoteEdit.self)        // 422 with the form when it does not decode
///     guard !edit.title.isEmpty else { throw FieldError("title", "A note needs a title.") }
///     return .redirect(to: context.parameters["id"] ?? "", notice: "Saved")
/// }
/// ```
public struct TabRoutes: Sendable {
    /// What a pattern leads to: a page (GET) or an action (POST).
    private enum Route: Sendable {
        case page(TabPageMaker)
        case action(TabAction)
    }

    private var routes: [Route] = []
    private var methods: [HTTPMethod] = []
    private var patterns: [RoutePattern] = []
    /// The router's matcher over `patterns`, made again as routes are added (while the
    /// app is set up, never per request).
    private var locator = RouteLocator(methods: [], patterns: [])

    /// No pages and no actions.
    public init() {}

    /// A page at `pattern` ("" is the tab's root): nil is a 404 with the bar.
    public mutating func page(_ pattern: String = "", _ make: @escaping TabPageMaker) {
        add(.page(make), .get, pattern)
    }

    /// An action at `pattern` ("" is the tab's root). `confirm` gives the question to ask
    /// first (nil: none).
    public mutating func action(
        _ pattern: String = "", confirm: (@Sendable (HTTPRequest, RequestContext) -> String?)? = nil,
        _ perform:
            nonisolated(nonsending) @escaping @Sendable (HTTPRequest, RequestContext) async throws -> TabActionResult
    ) {
        add(.action(TabAction(confirm: confirm, perform)), .post, pattern)
    }

    private mutating func add(_ route: Route, _ method: HTTPMethod, _ pattern: String) {
        routes.append(route)
        methods.append(method)
        patterns.append(RoutePattern(pattern))
        locator = RouteLocator(methods: methods, patterns: patterns)
    }

    /// The most specific page whose pattern matches, with what it captured.
    func page(at location: [Substring]) -> (TabPageMaker, RouteParameters)? {
        guard case .found(let index, let parameters) = locator.locate(.get, segments: location),
            case .page(let make) = routes[index]
        else { return nil }
        return (make, parameters)
    }

    /// The most specific action whose pattern matches, with what it captured.
    func action(at location: [Substring]) -> (TabAction, RouteParameters)? {
        guard case .found(let index, let parameters) = locator.locate(.post, segments: location),
            case .action(let action) = routes[index]
        else { return nil }
        return (action, parameters)
    }
}
