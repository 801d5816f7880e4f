// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerWeb

/// An app's content declared per tab: each tab's pages and actions by URL pattern
/// (`TabRoutes`). Tabs the model has but this does not declare show a 404 page with the
/// bar; a `fallback` provider can answer them instead.
///
/// ```swift
/// var content = TabContent()
/// content.tab("notes") { notes in
///     notes.page { _, context in TabPage(title: context.tab?.title ?? "Notes", context: ["notes": list()]) }
///     notes.page("new") { _, _ in TabPage(title: "New note", parentLocation: "", context: [:]) }
///     notes.action("new") { _, _ in .redirect(to: "", notice: "Saved") }
/// }
/// ```
public struct TabContent: TabContentProvider {
    private var tabs: [String: TabRoutes] = [:]
    /// Answers the tabs this does not declare (nil: they have no pages).
    public var fallback: (any TabContentProvider)?
    /// Gives the bottom accessory (nil: the fallback's, if any).
    private var accessoryMaker: AccessoryMaker?

    /// The accessory's closure, held in a struct of its own.
    private struct AccessoryMaker: Sendable {
        let make: @Sendable (TabAccessoryRequest) -> TabAccessory?
    }

    /// No tabs declared.
    public init(fallback: (any TabContentProvider)? = nil) {
        self.fallback = fallback
    }

    /// Declares the pages and actions of the tab with this id (again: adds to them).
    public mutating func tab(_ id: String, _ declare: (inout TabRoutes) -> Void) {
        var routes = tabs[id] ?? TabRoutes()
        declare(&routes)
        tabs[id] = routes
    }

    /// Declares the strip above the bar that stays across tabs (`TabAccessory`); the
    /// closure returns nil where there is none (nothing playing).
    public mutating func bottomAccessory(_ make: @escaping @Sendable (TabAccessoryRequest) -> TabAccessory?) {
        accessoryMaker = AccessoryMaker(make: make)
    }

    public func accessory(for request: TabAccessoryRequest) -> TabAccessory? {
        guard let accessoryMaker else { return fallback?.accessory(for: request) }
        return accessoryMaker.make(request)
    }

    public func page(for request: HTTPRequest, context: RequestContext) async throws -> TabPage? {
        guard let id = context.tab?.id, let routes = tabs[id] else {
            return try await fallback?.page(for: request, context: context)
        }
        guard let (make, parameters) = routes.page(at: context.location) else { return nil }
        var context = context
        context.parameters = parameters
        return try await make(request, context)
    }

    public func hasPage(for context: RequestContext) -> Bool {
        guard let id = context.tab?.id, let routes = tabs[id] else { return fallback?.hasPage(for: context) ?? false }
        return routes.page(at: context.location) != nil
    }

    public func action(for context: RequestContext) -> (TabAction, RouteParameters)? {
        guard let id = context.tab?.id, let routes = tabs[id] else { return fallback?.action(for: context) }
        return routes.action(at: context.location)
    }
}
