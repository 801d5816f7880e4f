// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// One tab's pages (GET) and actions (POST), each at a pattern below the tab's root:
/// `""` is the root, `"new"`, `"{id}"`, `"{id}/edit"`, `"files/{path*}"`. When several
/// patterns match a location the most specific wins (`new` over `{id}`; see
/// `RoutePattern.specificity`), then the first declared; a page and an action may share
/// one (the form at `new` posts to `new`).
///
/// ```swift
/// notes.page("{id}/edit") { request in form(for: request.parameters["id"]) }
/// notes.action("{id}/edit") { request in
///     guard let title = request.form.value("title"), !title.isEmpty else {
///         return .invalid(form(errors: ["title": "A note needs a title."]))
///     }
///     return .redirect(to: request.parameters["id"] ?? "", notice: "Saved")
/// }
/// ```
public struct TabRoutes: Sendable {
    enum PageSource: Sendable {
        case now(@Sendable (TabPageRequest) -> TabPage?)
        case later(TabPageLoader)
    }

    struct PageRoute: Sendable {
        let pattern: RoutePattern
        let source: PageSource
    }

    struct ActionRoute: Sendable {
        let pattern: RoutePattern
        let action: TabAction
    }

    private(set) var pages: [PageRoute] = []
    private(set) var actions: [ActionRoute] = []

    /// No pages and no actions.
    public init() {}

    /// A page made on the engine's thread (keep it quick): nil is a 404 with the bar.
    public mutating func page(_ pattern: String, _ make: @escaping @Sendable (TabPageRequest) -> TabPage?) {
        pages.append(PageRoute(pattern: RoutePattern(pattern), source: .now(make)))
    }

    /// A page loaded off the engine's threads, as a Swift task (a database, another
    /// service): the engine serves others until it is there.
    public mutating func page(
        _ pattern: String, loading load: @escaping @Sendable (TabPageRequest) async throws -> TabPage?
    ) {
        pages.append(PageRoute(pattern: RoutePattern(pattern), source: .later(TabPageLoader(load))))
    }

    /// An action run on the engine's thread (keep it quick). `confirm` gives the question
    /// to ask first (nil: none).
    public mutating func action(
        _ pattern: String, confirm: (@Sendable (TabActionRequest) -> String?)? = nil,
        _ perform: @escaping @Sendable (TabActionRequest) throws -> TabActionResult
    ) {
        actions.append(ActionRoute(pattern: RoutePattern(pattern), action: TabAction(confirm: confirm, perform)))
    }

    /// An action run off the engine's threads, as a Swift task.
    public mutating func action(
        _ pattern: String, confirm: (@Sendable (TabActionRequest) -> String?)? = nil,
        performing perform: @escaping @Sendable (TabActionRequest) async throws -> TabActionResult
    ) {
        actions.append(
            ActionRoute(pattern: RoutePattern(pattern), action: TabAction(confirm: confirm, performing: perform)))
    }

    /// The most specific page whose pattern matches, with what it captured.
    func page(at location: [Substring]) -> (PageSource, RouteParameters)? {
        Self.best(pages, location, pattern: \.pattern).map { ($0.route.source, $0.parameters) }
    }

    /// The most specific action whose pattern matches, with what it captured.
    func action(at location: [Substring]) -> (TabAction, RouteParameters)? {
        Self.best(actions, location, pattern: \.pattern).map { ($0.route.action, $0.parameters) }
    }

    private static func best<Route>(_ routes: [Route], _ location: [Substring], pattern: KeyPath<Route, RoutePattern>)
        -> (route: Route, parameters: RouteParameters)?
    {
        var found: (route: Route, parameters: RouteParameters, specificity: [Int])? = nil
        for route in routes {
            guard let parameters = route[keyPath: pattern].match(location) else { continue }
            let specificity = route[keyPath: pattern].specificity
            // Replaced only by a strictly more specific one: the first declared wins a tie.
            if let current = found, !current.specificity.lexicographicallyPrecedes(specificity) { continue }
            found = (route, parameters, specificity)
        }
        return found.map { ($0.route, $0.parameters) }
    }
}
