// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

extension TabServerResponder {
    /// A library route's handler: a synchronous step on the visitor's state (its session
    /// fetched already), which the commit after it writes back.
    static func library(
        _ body:
            @escaping @Sendable (TabServerResponder, HTTPRequest, RouteParameters, inout RequestState) throws(HTTPError)
            -> HTTPResponse
    ) -> Router<RequestContext>.Handler {
        { request, context in
            let handle = context.visitor
            return try body(handle.app, request, context.parameters, &handle.state)
        }
    }

    /// Adds the library's routes to `router`, the app's own router (so an app's route of
    /// its own may sit beside them, and a more specific one wins). Paths are below the
    /// base path.
    static func addLibraryRoutes(to router: Router<RequestContext>) {
        addHealthRoutes(to: router)
        addTabPageRoutes(to: router)
        addSelectionRoutes(to: router)
        addSidebarRoutes(to: router)
        addAccessoryRoutes(to: router)
        addMoreRoutes(to: router)
        addEventRoutes(to: router)
        addOfflineRoutes(to: router)
        addPushRoutes(to: router)
        addSpeculationRoutes(to: router)
    }
}
