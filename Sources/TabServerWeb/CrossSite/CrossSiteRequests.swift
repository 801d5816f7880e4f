// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Whether a route that changes something (POST, PUT, PATCH, DELETE) takes requests made
/// by other sites' pages. A page anywhere can post a form to any URL, with the visitor's
/// cookies, and no CORS preflight asks first; so by default such a route refuses what a
/// browser says another origin made (`Sec-Fetch-Site: cross-site`, or an `Origin` that is
/// not the app's: 403 before anything runs), and a body such a page can send without a
/// preflight (a url-encoded or multipart form, `text/plain`) must carry the visitor's form
/// token. JSON from an API client, which sends neither header, is taken as it comes.
///
/// ```swift
/// app.router.post("/api/notes") { request, context in … }                       // refused cross-site
/// app.router.post("/hooks/payments", crossSite: .allowed) { request, context in … }  // a webhook
/// ```
public struct CrossSiteRequests: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case refused
        case allowed
        case checkedByHandler
    }

    let kind: Kind

    /// Requests from other origins are refused, and form bodies need the form token
    /// (the default).
    public static let refused = CrossSiteRequests(kind: .refused)
    /// Every request is taken: a webhook, or an API other origins call with their own
    /// authentication. The route checks what it needs itself.
    public static let allowed = CrossSiteRequests(kind: .allowed)
    /// The library's own routes, whose handlers check the site and the token themselves.
    package static let checkedByHandler = CrossSiteRequests(kind: .checkedByHandler)

    /// Whether a `method` request to a route of this kind is checked before it runs.
    package func checks(_ method: HTTPMethod) -> Bool {
        kind == .refused && !method.isSafe
    }
}

extension HTTPMethod {
    /// GET, HEAD and OPTIONS, which change nothing (RFC 9110 §9.2.1); TRACE is never routed.
    var isSafe: Bool { self == .get || self == .head || self == .options }
}
