// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// Where a request goes: every route (the library's and the app's, on one table) and the
/// app's middleware around every answer (static files, pages and errors included).
struct Routing: Sendable {
    let routes: RouteTable<RequestContext>
    let middleware: MiddlewareChain<RequestContext>
}
