// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// The way in: what is answered at once, on the engine loop without a task (a static file,
/// the manifest and service worker, a page seen before, `/healthz`, when the app has no
/// middleware of its own), and the async path every other request takes. In order, each
/// request passes: `/metrics` and `/admin/backup` (at the root), the base path, the app's
/// middleware (outermost first), then the library's files, the router (the library's
/// routes and the app's, each route with its group's middleware), and the visitor's commit.
extension TabServerResponder {
    public func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? {
        // Only a GET or HEAD is answered here: anything else (a post, a 405) is answered
        // the same on the async path, without first paying for the lookups below.
        guard request.method == .get || request.method == .head, routing.middleware.isEmpty,
            !Self.isAtRoot(request.path)
        else { return nil }
        let started = operations.metrics == nil ? 0 : AppMetrics.monotonicNanos()
        let origin = configuration.trustedProxies.origin(of: request)
        // Without a base path the request is used as it is: `belowBasePath` would hand back
        // a copy of it, and every page would pay for copying and destroying a request.
        if configuration.basePath.isEmpty { return immediateAnswer(below: request, origin: origin, started: started) }
        guard let below = belowBasePath(request, origin: origin) else {
            return finish(ResponderAnswer(.text("404 Not Found\n", status: .notFound)), request, origin, started)
        }
        return immediateAnswer(below: below, origin: origin, started: started)
    }

    /// `immediateAnswer(to:)` for a request whose path is below the base path.
    private func immediateAnswer(below request: HTTPRequest, origin: RequestOrigin, started: UInt64)
        -> ResponderAnswer?
    {
        if let file = libraryFile(request) {
            return finish(file, request, origin, started, route: operations.metrics?.staticRoute)
        }
        if request.path == "/healthz", request.method == .get || request.method == .head {
            return finish(ResponderAnswer(.text("ok\n")), request, origin, started, route: routeLabel(request))
        }
        guard visitors.identity.user(of: request) == nil else { return nil }
        switch cachedPage(request) {
        case .hit(let answer): return finish(answer, request, origin, started, route: routeLabel(request))
        case .miss, .notAsked: return nil
        }
    }

    public nonisolated(nonsending) func answer(to request: HTTPRequest) async -> ResponderAnswer {
        if Self.isAtRoot(request.path), let answer = await answerAtRoot(request) { return answer }
        // Without a base path the request goes on as it is (`belowBasePath` hands back a copy).
        guard configuration.basePath.isEmpty else { return await answerBelowBasePath(request) }
        return await answer(
            below: request, origin: configuration.trustedProxies.origin(of: request), started: startedNanos())
    }

    /// `answer(to:)` with a base path: 404 outside it.
    private nonisolated(nonsending) func answerBelowBasePath(_ request: HTTPRequest) async -> ResponderAnswer {
        let (started, origin) = (startedNanos(), configuration.trustedProxies.origin(of: request))
        guard let below = belowBasePath(request, origin: origin) else {
            return finish(ResponderAnswer(.text("404 Not Found\n", status: .notFound)), request, origin, started)
        }
        return await answer(below: below, origin: origin, started: started)
    }

    /// When a request started, for its latency in the metrics (0 without metrics).
    private func startedNanos() -> UInt64 { operations.metrics == nil ? 0 : AppMetrics.monotonicNanos() }

    // The async functions every request passes through keep their rarer ways in
    // functions of their own, so each reads as the common way.

    /// `/metrics` and `/admin/backup`, answered at the root whatever the base path (nil
    /// when the one asked for is off).
    private nonisolated(nonsending) func answerAtRoot(_ request: HTTPRequest) async -> ResponderAnswer? {
        let (started, origin) = (startedNanos(), configuration.trustedProxies.origin(of: request))
        if request.path == "/metrics", let metrics = operations.metrics, let sources = metricsSources {
            let trust = configuration.trustedProxies
            let response =
                (try? await operations.blockingPool.run {
                    MetricsEndpoint.response(request, metrics: metrics, sources: sources, trust: trust)
                }) ?? busyPage()
            return finish(ResponderAnswer(response), request, origin, started, route: metrics.metricsRoute)
        }
        if request.path == BackupEndpoint.path, let backup = operations.backup {
            return finish(ResponderAnswer(await backup.answer(request)), request, origin, started)
        }
        return nil
    }

    /// `answer(to:)` for a request whose path is below the base path.
    private nonisolated(nonsending) func answer(below request: HTTPRequest, origin: RequestOrigin, started: UInt64)
        async -> ResponderAnswer
    {
        let handle = VisitorHandle(
            app: self, request: request, user: visitors.identity.user(of: request), origin: origin)
        let response = await Self.through(
            routing.middleware, request, RequestContext(visitor: handle), recover: errorResponse
        ) {
            request, context in try await self.serve(request, context)
        }
        return finish(response, handle, request, started)
    }

    /// `finish` for an answer of the async path. The app's middleware may have changed the
    /// response: then the engine builds its head.
    private func finish(
        _ response: consuming HTTPResponse, _ handle: VisitorHandle, _ request: HTTPRequest, _ started: UInt64
    ) -> ResponderAnswer {
        let prepared = routing.middleware.isEmpty ? handle.prepared : nil
        return finish(
            ResponderAnswer(response, prepared: prepared), request, handle.origin, started, route: handle.route)
    }

    /// What the app's middleware wraps: the library's files, then the router.
    nonisolated(nonsending) func serve(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        switch destination(of: request, context.visitor) {
        case .file(let response): return response
        case .route(let match): return await run(request, context: context, route: match)
        case .unrouted(let allowed): try await unrouted(context.visitor, allowed: allowed)
        }
    }

    /// Where `serve` takes a request.
    private enum Destination {
        /// A library file, answered at once.
        case file(HTTPResponse)
        case route(RouteTable<RequestContext>.Match)
        /// No route answers: 405 with the methods allowed, else 404.
        case unrouted(allowed: [HTTPMethod]?)
    }

    /// Where `request` goes, with its route label (and prepared answer) on `handle`.
    private func destination(of request: HTTPRequest, _ handle: VisitorHandle) -> Destination {
        if let file = libraryFile(request) {
            handle.prepared = file.prepared
            handle.route = operations.metrics?.staticRoute
            return .file(file.response)
        }
        switch routing.routes.resolve(request.method, request.path) {
        case .found(let match):
            handle.route = match.label
            return .route(match)
        case .methodNotAllowed(let allowed, let label):
            handle.route = label
            return .unrouted(allowed: allowed)
        case .notFound:
            return .unrouted(allowed: nil)
        }
    }

    /// Throws the 405 (with the methods `allowed`) or 404 of a request no route answers,
    /// once the visitor is fetched: its page shows their bar.
    private nonisolated(nonsending) func unrouted(_ handle: VisitorHandle, allowed: [HTTPMethod]?) async throws -> Never
    {
        await fetch(handle)
        guard let allowed else { throw HTTPError.notFound() }
        throw HTTPError.methodNotAllowed(allowed: allowed)
    }

    /// The static files, the manifest and the service worker (a GET or HEAD of one), with
    /// the engine's prepared form where it has one; nil for anything else. A page the
    /// service worker fetches gets its offline cache key.
    func libraryFile(_ request: HTTPRequest) -> ResponderAnswer? {
        guard request.method == .get || request.method == .head else { return nil }
        if let generated = pages.installed.answer(request) { return ResponderAnswer(generated) }
        return pages.files.answer(for: request, path: request.path)
    }

    /// Paths answered at the root whatever the base path, and only on the async path:
    /// `/metrics` and `/admin/backup` may wait.
    static func isAtRoot(_ path: String) -> Bool {
        path == "/metrics" || path == BackupEndpoint.path
    }

    /// The request with its path below the base path (`/app/tabs/music` → `/tabs/music`);
    /// nil when it is outside it. Health checks answer at the root too: a proxy or
    /// orchestrator probes the instance itself, not the app's public prefix.
    func belowBasePath(_ request: HTTPRequest, origin: RequestOrigin) -> HTTPRequest? {
        let base = configuration.basePath
        guard !base.isEmpty else { return request }
        let path = request.path
        var below = request
        if path == base {
            below.path = "/"
        } else if path.hasPrefix(base + "/") {
            below.path = String(path.dropFirst(base.count))
        } else if let prefix = origin.prefix, prefix.hasSuffix("/") ? String(prefix.dropLast()) == base : prefix == base
        {
            return request
        } else if path == "/healthz" || path == "/readyz" {
            return request
        } else {
            return nil
        }
        return below
    }

    /// The route label a request counts under in the metrics (nil without metrics).
    func routeLabel(_ request: HTTPRequest) -> Int? {
        guard operations.metrics != nil else { return nil }
        switch routing.routes.resolve(request.method, request.path) {
        case .found(let match): return match.label
        case .methodNotAllowed(_, let label): return label
        case .notFound: return nil
        }
    }

    /// What every answer gets on its way out: the service worker's cache key on its pages,
    /// the access log's note on the client a trusted proxy named, and (metrics on) its count
    /// and latency under its route.
    func finish(
        _ answer: consuming ResponderAnswer, _ request: HTTPRequest, _ origin: RequestOrigin, _ started: UInt64,
        route: Int? = nil
    ) -> ResponderAnswer {
        if let offlineKey = pages.offlineKey, let keyed = offlineKey.keyed(answer.response, for: request) {
            answer.response = keyed
            answer.prepared = nil
        }
        if origin.client != request.remoteAddress { answer.logNote = "client=\(origin.client)" }
        if let metrics = operations.metrics {
            metrics.record(
                route: route ?? metrics.unmatchedRoute, method: request.method, status: answer.response.status.code,
                nanos: AppMetrics.monotonicNanos() &- (request.receivedAt == 0 ? started : request.receivedAt))
        }
        return answer
    }

    /// 503 for a request no lane of the blocking pool can take now.
    func busyPage() -> HTTPResponse {
        var response = HTTPResponse.text("The server is busy. Please try again.\n", status: .serviceUnavailable)
        response.headers.add("Retry-After", "1")
        return response
    }
}
