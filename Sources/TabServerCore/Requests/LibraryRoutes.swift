// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// One of the library's features as the router sees it: the routes it adds to the app's
/// one router (paths below the base path), each handler given the app's responder.
protocol LibraryRoutes {
    /// Adds the feature's routes to `router`.
    static func add(to router: Router<RequestContext>)
}
