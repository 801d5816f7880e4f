// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerHTTP
import TabServerPush
import TabServerSessions
import TabServerWeb

extension TabServerResponder {
    /// The push routes: `POST /push/subscribe` and `POST /push/unsubscribe`, posted by the
    /// More page's opt-in (`Public/js/push.js`) as JSON with the page's token in
    /// `X-CSRF-Token`, and `POST /push/resubscribe`, posted by the service worker when the
    /// browser changes a subscription. 404 when push is off.
    static func addPushRoutes(to router: Router<RequestContext>) {
        router.on(
            .post, "/push/subscribe", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.subscribePush(request, state: &state)
            })
        router.on(
            .post, "/push/unsubscribe", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.unsubscribePush(request, state: &state)
            })
        router.on(
            .post, "/push/resubscribe", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.resubscribePush(request, state: &state)
            })
    }

    /// Takes the browser's subscription (`PushSubscription.toJSON()`, with
    /// `"notifications": true` when the visitor asked for them): kept in the session, or
    /// for a signed-in user in their record with their other devices', within their
    /// `PushSubscriptionLimit` (the oldest go). 200 with the forms' token (`{"csrf": …}`:
    /// new when this made the session); 413 for a body over 4 KiB, 422 for anything that
    /// is not a subscription to a public `https` push service, 429 past the client's
    /// budget: each subscribe costs one of its new sessions, as it makes a session grow.
    /// Nothing is sent now: the app's next push goes to it.
    func subscribePush(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        guard let push else { throw HTTPError.notFound() }
        var session = try visitor(&state)
        try verifyCSRF(request, state: state, formOnly: false)
        // A new session's subscribe is counted when the session is stored (a signed-in
        // user's goes to their record whatever becomes of the browser's session: counted now).
        if !state.isNewSession || state.user != nil, let newSessions = visitors.newSessions,
            case .refused(let retryAfter) = newSessions.take(state.clientKey)
        {
            throw HTTPError.tooManyRequests(
                "Too many requests come from your network right now. Please try again in a moment.",
                retryAfter: retryAfter)
        }
        let body = try Self.pushBody(request)
        let subscription: PushSubscription
        do {
            subscription = try PushSubscription(json: body, allowingLoopback: push.allowsLoopback)
        } catch {
            throw HTTPError.unprocessable("This is not a push subscription this server can use: \(error.reason).")
        }
        let notifications = (try? JSONDecoder().decode(Options.self, from: Data(body)))?.notifications ?? false
        session.pushSubscriptions = session.pushSubscriptions.adding(
            PushSubscriptionRecord(
                endpoint: subscription.endpoint.url, p256dh: subscription.p256dh, auth: subscription.auth,
                created: now, notifications: notifications),
            within: state.user == nil ? .browser : .user)
        // A visitor without a stored session gets one now, and with it a token of its own:
        // the page's forms take it from the answer.
        session = state.keep(session)
        push.counted(.subscribed)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(
            status: .ok, headers: headers, body: .bytes(Array(#"{"csrf":"\#(session.csrfToken.text)"}"#.utf8)))
    }

    /// Forgets the subscription at the posted endpoint (`{"endpoint": "…"}`). 204 whether
    /// or not it was kept; 422 for a body without an endpoint.
    func unsubscribePush(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        guard let push else { throw HTTPError.notFound() }
        var session = try visitor(&state)
        try verifyCSRF(request, state: state, formOnly: false)
        let body = try Self.pushBody(request)
        guard let endpoint = (try? JSONDecoder().decode(Endpoint.self, from: Data(body)))?.endpoint else {
            throw HTTPError.unprocessable("The body names no endpoint: {\"endpoint\": \"https://…\"} is expected.")
        }
        if session.pushSubscriptions.contains(where: { $0.endpoint == endpoint }) {
            session.pushSubscriptions = session.pushSubscriptions.removing(endpoint: endpoint)
            state.session = session
            push.counted(.unsubscribed)
        }
        return HTTPResponse(status: .noContent)
    }

    /// Replaces the subscription the browser changed (`pushsubscriptionchange`): the body
    /// is the new `PushSubscription.toJSON()` with `"oldEndpoint"`, the one it replaces.
    /// The service worker has no page and so no form token: the old endpoint, a secret
    /// only this visitor's browser and the push service know, stands for it, with the
    /// session's cookie and a request the browser says this app's origin made. The new
    /// subscription keeps the old one's choice of notifications. 204 once replaced; 410
    /// when this session holds no subscription at that endpoint (the visitor turns push
    /// on again on More); 403 for another origin's request; 422 for a body that is not a
    /// subscription.
    func resubscribePush(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        guard let push else { throw HTTPError.notFound() }
        let site = RequestSite(
            of: request, appHost: appHost(of: request), appScheme: configuration.publicOrigin?.scheme.rawValue)
        guard site == .sameOrigin else {
            throw HTTPError.forbidden("A subscription is replaced only by this app's own service worker.")
        }
        let body = try Self.pushBody(request)
        guard let oldEndpoint = (try? JSONDecoder().decode(Replacement.self, from: Data(body)))?.oldEndpoint else {
            throw HTTPError.unprocessable(
                "The body names no old endpoint: {\"oldEndpoint\": \"https://…\", \"endpoint\": …} is expected.")
        }
        let subscription: PushSubscription
        do {
            subscription = try PushSubscription(json: body, allowingLoopback: push.allowsLoopback)
        } catch {
            throw HTTPError.unprocessable("This is not a push subscription this server can use: \(error.reason).")
        }
        var session = try visitor(&state)
        guard !state.isNewSession, let old = session.pushSubscriptions.first(where: { $0.endpoint == oldEndpoint })
        else {
            throw HTTPError(.gone, "This browser has no subscription at that endpoint here; turn push on again.")
        }
        session.pushSubscriptions = session.pushSubscriptions.removing(endpoint: oldEndpoint).adding(
            PushSubscriptionRecord(
                endpoint: subscription.endpoint.url, p256dh: subscription.p256dh, auth: subscription.auth,
                created: now, notifications: old.notifications),
            within: state.user == nil ? .browser : .user)
        state.session = session
        push.counted(.replaced)
        return HTTPResponse(status: .noContent)
    }

    /// What `/metrics` adds for `push` (nil when push is off).
    static func pushExposition(_ push: PushFeature?) -> (@Sendable () -> String)? {
        guard let push else { return nil }
        return { push.exposition }
    }

    /// A push route's JSON body, at most `PushSubscription.maxJSONSize` bytes.
    private static func pushBody(_ request: HTTPRequest) throws(HTTPError) -> [UInt8] {
        guard request.body.count <= PushSubscription.maxJSONSize else {
            throw HTTPError.contentTooLarge("A push subscription is at most \(PushSubscription.maxJSONSize) bytes.")
        }
        let type = request.headers["content-type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else { throw HTTPError.unsupportedMediaType(["application/json"]) }
        return request.body
    }

    /// The More page's opt-in: the VAPID key and the routes (nil when push is off).
    func pushOptIn() -> [String: String]? {
        guard let push else { return nil }
        return [
            "key": push.applicationServerKey, "subscribe": configuration.basePath + "/push/subscribe",
            "unsubscribe": configuration.basePath + "/push/unsubscribe",
            "script": pages.files.url(for: "js/push.js", prefix: configuration.basePath),
        ]
    }

    private struct Options: Decodable {
        let notifications: Bool?
    }

    private struct Endpoint: Decodable {
        let endpoint: String
    }

    private struct Replacement: Decodable {
        let oldEndpoint: String
    }
}
