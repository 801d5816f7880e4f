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
    struct PageRoute: Sendable {
        let pattern: RoutePattern
        let make: TabPageMaker
    }

    struct ActionRoute: Sendable {
        let pattern: RoutePattern
        let action: TabAction
    }

    private(set) var pages: [PageRoute] = []
    private(set) var actions: [ActionRoute] = []

    /// No pages and no actions.
    public init() {}

    /// A page at `pattern` ("" is the tab's root): nil is a 404 with the bar.
    public mutating func page(_ pattern: String = "", _ make: @escaping TabPageMaker) {
        pages.append(PageRoute(pattern: RoutePattern(pattern), make: make))
    }

    /// An action at `pattern` ("" is the tab's root). `confirm` gives the question to ask
    /// first (nil: none).
    public mutating func action(
        _ pattern: String = "", confirm: (@Sendable (HTTPRequest, RequestContext) -> String?)? = nil,
        _ perform:
            nonisolated(nonsending) @escaping @Sendable (HTTPRequest, RequestContext) async throws -> TabActionResult
    ) {
        actions.append(ActionRoute(pattern: RoutePattern(pattern), action: TabAction(confirm: confirm, perform)))
    }

    /// The most specific page whose pattern matches, with what it captured.
    func page(at location: [Substring]) -> (TabPageMaker, RouteParameters)? {
        Self.best(pages, location, pattern: \.pattern).map { ($0.route.make, $0.parameters) }
    }

    /// The most specific action whose pattern matches, with what it captured.
    func action(at location: [Substring]) -> (TabAction, RouteParameters)? {
        Self.best(actions, location, pattern: \.pattern).map { ($0.route.action, $0.parameters) }
    }

    private static func best<Route>(_ routes: [Route], _ location: [Substring], pattern: KeyPath<Route, RoutePattern>)
        -> (route: Route, parameters: RouteParameters)?
    {
        var found: (route: Route, parameters: RouteParameters, pattern: RoutePattern)? = nil
        for route in routes {
            guard let parameters = route[keyPath: pattern].match(location) else { continue }
            // Replaced only by a strictly more specific one: the first declared wins a tie.
            if let current = found, !route[keyPath: pattern].isMoreSpecific(than: current.pattern) { continue }
            found = (route, parameters, route[keyPath: pattern])
        }
        return found.map { ($0.route, $0.parameters) }
    }
}
