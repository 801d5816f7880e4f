// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCrypto
import TabServerHTTP
import TabServerWeb

/// Names, on every page the service worker fetches, whose pages they are:
/// `X-TabServer-Cache-Key`, a hash of the session cookie and the signed-in user. The
/// worker keeps each visitor's pages under that key and drops them all when it changes
/// (another cookie, signing in or out), so one visitor's pages are never shown to another.
///
/// Only the worker's requests get it, marked by the browser (`Service-Worker-Navigation-
/// Preload`) or by the worker (`X-TabServer-Worker`): any other request costs two header
/// look-ups, not a hash. A 304 carries it too, so a page revalidated from the browser's
/// cache gets the key of now.
///
/// The key is no secret and no credential: a one-way hash of values the browser already
/// holds, which the server never accepts in their place. A visitor with neither a
/// session nor a user gets `anonymous`: their pages are everyone's (the default
/// arrangement), so the worker may keep them for the session they start next. Only with
/// the worker on.
package struct OfflineCacheKey: Sendable {
    package let cookieName: String
    package let identity: IdentityReader

    package init(cookieName: String, identity: IdentityReader) {
        self.cookieName = cookieName
        self.identity = identity
    }

    /// `response` with the key added, when `request` is the worker's and the response a
    /// page (or a 304 of one); nil when it gets none. (A finished page's prepared head is
    /// shared with the browser's own requests, which get no key: the caller drops it.)
    package func keyed(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse? {
        guard Self.fromWorker(request),
            response.status == .notModified || response.headers["content-type"]?.hasPrefix("text/html") == true
        else { return nil }
        var response = response
        response.headers.add(ServiceWorkerScript.cacheKeyHeader, key(request, response))
        return response
    }

    /// The header the worker marks its own requests with.
    package static let workerHeader = "X-TabServer-Worker"

    /// Whether the service worker sent `request` (a navigation preload, or its own fetch).
    package static func fromWorker(_ request: HTTPRequest) -> Bool {
        request.headers["service-worker-navigation-preload"] != nil || request.headers[workerHeader] != nil
    }

    /// The key for the session this answer leaves the browser with: a cookie it sets
    /// (a new session; an empty one when it is deleted), else the one it came with.
    package func key(_ request: HTTPRequest, _ response: HTTPResponse) -> String {
        var session = request.cookie(cookieName) ?? ""
        let prefix = cookieName + "="
        for value in response.headers.values("set-cookie") where value.hasPrefix(prefix) {
            let pair = value.split(separator: ";", maxSplits: 1)[0]
            session = String(pair.dropFirst(prefix.count))
            if value.lowercased().contains("max-age=0") { session = "" }
        }
        let user = identity.user(of: request) ?? ""
        if session.isEmpty, user.isEmpty { return Self.anonymous }
        let text = "tabserver offline cache key\u{0}\(session)\u{0}\(user)"
        return String(Digest.hex(Digest.sha256(Array(text.utf8))).prefix(32))
    }

    /// The key of pages shown to no one in particular.
    package static let anonymous = "anonymous"
}
