// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// An app's content declared per tab: each tab's pages and actions by URL pattern
/// (`TabRoutes`). Tabs the model has but this does not declare show a 404 page with the
/// bar; a `fallback` provider can answer them instead.
///
/// ```swift
/// var content = TabContent()
/// content.tab("notes") { notes in
///     notes.page("") { request in TabPage(title: request.tab.title, context: ["notes": list()]) }
///     notes.page("new") { request in TabPage(title: "New note", parentLocation: "", context: [:]) }
///     notes.action("new") { request in .redirect(to: "", notice: "Saved") }
/// }
/// let app = try buildApplication(configuration, content: content)
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

    public func page(for request: TabPageRequest) -> TabPage? {
        guard let routes = tabs[request.tab.id] else { return fallback?.page(for: request) }
        guard case (.now(let make), let parameters)? = routes.page(at: request.location) else { return nil }
        var request = request
        request.parameters = parameters
        return make(request)
    }

    public func loader(for request: TabPageRequest) -> TabPageLoader? {
        guard let routes = tabs[request.tab.id] else { return fallback?.loader(for: request) }
        guard case (.later(let loader), let parameters)? = routes.page(at: request.location) else { return nil }
        return TabPageLoader { request in
            var request = request
            request.parameters = parameters
            return try await loader.load(request)
        }
    }

    public func action(for request: TabActionRequest) -> TabAction? {
        guard let routes = tabs[request.tab.id] else { return fallback?.action(for: request) }
        guard let (action, parameters) = routes.action(at: request.location) else { return nil }
        return action.capturing(parameters)
    }
}
