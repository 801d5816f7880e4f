// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerThreads
import TabServerWeb

/// A routed request: its form decoded once, a page seen before answered from the cache
/// without the visitor's lock, else the visitor's lock taken, their session fetched (on
/// the blocking pool when the store would wait), the route run (its group's middleware
/// around its handler), and the session committed; a write another instance made
/// meanwhile runs it again on the fresh session.
extension TabServerResponder {
    nonisolated(nonsending) func run(
        _ request: HTTPRequest, context: RequestContext, route: RouteTable<RequestContext>.Match
    ) async -> HTTPResponse {
        // A form post's fields, decoded once here for every route; any other body is the
        // route's to decode (`request.decode(as:)`), or refused by it with 415. Only then is
        // the request copied: a copy retains a dozen fields and releases them again.
        guard !request.body.isEmpty, request.formFields.isEmpty, request.hasFormBody else {
            return await run(request, bodyError: nil, context: context, route: route)
        }
        return await runDecoding(request, context: context, route: route)
    }

    /// `run` for a form post, its fields decoded.
    private nonisolated(nonsending) func runDecoding(
        _ request: HTTPRequest, context: RequestContext, route: RouteTable<RequestContext>.Match
    ) async -> HTTPResponse {
        var decoded = request
        do {
            decoded.formFields = try request.decodeForm(limits: configuration.bodyLimits).fields
        } catch {
            return await run(request, bodyError: error, context: context, route: route)
        }
        return await run(decoded, bodyError: nil, context: context, route: route)
    }

    /// `run` once the request's form, if any, is decoded (or refused with `bodyError`).
    private nonisolated(nonsending) func run(
        _ request: HTTPRequest, bodyError: HTTPError?, context: RequestContext,
        route: RouteTable<RequestContext>.Match
    ) async -> HTTPResponse {
        var context = context
        context.parameters = route.parameters
        let (attempt, sessionKey, userKey): (Attempt, Int?, Int?)
        switch start(request, bodyError: bodyError, context.visitor) {
        case .answered(let response): return response
        case .attempt(let first, let session, let user): (attempt, sessionKey, userKey) = (first, session, user)
        }
        // A visitor's requests run one at a time in this process; a request without a
        // session cookie creates a new session and races no one. A signed-in user's
        // requests from all their browsers do too.
        // The lock is let go once the session is written (in this process's copy): what is
        // left, waiting for a group commit or a pipelined write's answer, runs outside it.
        var first = 0
        while true {
            let outcome = await locked(session: sessionKey, user: userKey) {
                await runAttempts(attempt, from: first, context: context, route: route)
            }
            switch outcome {
            case .answer(let response, let finishing):
                return await finishCommit(response, finishing)
            case .pending(let pending, let number):
                switch await finishPending(pending, context.visitor) {
                case .answer(let response, let finishing): return await finishCommit(response, finishing)
                case .again, .pending: first = number + 1
                }
                if first >= SessionWrites.maxAttempts { return conflictPage(attempt.request) }
            }
        }
    }

    /// `body` under the locks of the visitor's session and user (each when there is one).
    private nonisolated(nonsending) func locked<Result: Sendable>(
        session: Int?, user: Int?, _ body: nonisolated(nonsending) () async -> Result
    ) async -> Result {
        switch (session, user) {
        case (nil, nil): await body()
        case (let key?, nil), (nil, let key?): await visitors.locks.withLock(key) { await body() }
        case (let session?, let user?):
            await visitors.locks.withLock(session) { await visitors.locks.withLock(user) { await body() } }
        }
    }

    /// How the attempts made under the visitor's locks end.
    enum AttemptsOutcome: Sendable {
        /// The answer, and what is left to do before it is sent.
        case answer(HTTPResponse, Finishing?)
        /// Attempt `number`'s write or check is in the store's pipeline, its answer to be
        /// awaited.
        case pending(PendingCommit, number: Int)
    }

    /// How a routed request starts.
    private enum Start {
        /// A page seen before, of a session unchanged since: it changes nothing, and is
        /// answered from the cache without the visitor's lock.
        case answered(HTTPResponse)
        /// The route runs, under the locks of the visitor's session and user (if any).
        case attempt(Attempt, sessionLock: Int?, userLock: Int?)
    }

    /// How `request` starts: the page cache asked first (it never waits).
    private func start(_ request: HTTPRequest, bodyError: HTTPError?, _ handle: VisitorHandle) -> Start {
        let user = handle.state.user
        let cookie = request.cookie(configuration.cookieName)
        var asked = false
        if user == nil, bodyError == nil, !handle.storedOuterValues {
            switch cachedPage(request, cookie: cookie) {
            case .hit(let answer):
                handle.prepared = answer.prepared
                return .answered(answer.response)
            case .miss: asked = true
            case .notAsked: break
            }
        }
        return .attempt(
            Attempt(request: request, cookie: cookie, bodyError: bodyError, pageCacheAsked: asked),
            sessionLock: cookie.map(VisitorLocks.key), userLock: user.map { VisitorLocks.key("user\u{0}" + $0) })
    }

    /// What every attempt of a request starts from.
    ///
    /// A class: as a struct it would take its whole size several times over in the frame
    /// of `run`.
    final class Attempt: Sendable {
        let request: HTTPRequest
        let cookie: String?
        let bodyError: HTTPError?
        let pageCacheAsked: Bool

        init(request: HTTPRequest, cookie: String?, bodyError: HTTPError?, pageCacheAsked: Bool) {
            (self.request, self.cookie, self.bodyError, self.pageCacheAsked) = (
                request, cookie, bodyError, pageCacheAsked
            )
        }
    }

    /// The request's attempts: its answer and what is left to do before it is sent.
    private nonisolated(nonsending) func runAttempts(
        _ attempt: Attempt, from first: Int, context: RequestContext, route: RouteTable<RequestContext>.Match
    ) async -> AttemptsOutcome {
        let handle = context.visitor
        let request = attempt.request
        for number in first..<SessionWrites.maxAttempts {
            handle.beginAttempt(
                request, cookie: attempt.cookie, pageCacheAsked: attempt.pageCacheAsked && number == 0,
                first: number == 0)
            await fetch(handle)
            handle.replayOuterValues()
            let response =
                if let refused = refusedBodyPage(attempt, context) {
                    refused
                } else {
                    await respond(request, context: context, route: route)
                }
            // The client is gone (its task was cancelled) before anything was committed:
            // nothing is written, and the answer goes nowhere.
            if Task.isCancelled { return cancelled(response, handle) }
            let compressed = compress(response, for: request, handle)
            let settled =
                if let unasked = settledUnasked(compressed, handle) { unasked } else {
                    await settle(compressed, handle)
                }
            switch settled {
            case .answer(let final, let finishing): return .answer(final, finishing)
            case .again: continue
            case .pending(let pending): return .pending(pending, number: number)
            }
        }
        return .answer(conflictPage(request), nil)
    }

    /// The route's answer: its handler's, through its group's middleware (or, for a
    /// script's post, the page the 303 leads to, in this one round trip).
    private nonisolated(nonsending) func respond(
        _ request: HTTPRequest, context: RequestContext, route: RouteTable<RequestContext>.Match
    ) async -> HTTPResponse {
        if route.crossSite.checks(request.method), let refusal = crossSiteRefusal(request, context) {
            return refusal
        }
        let response = await Self.through(route.middleware, request, context, recover: errorResponse) {
            request, context in try await route.handler(request, context)
        }
        // A finished page from the cache comes with the engine's prepared head, unless the
        // route's middleware may have changed it.
        let handle = context.visitor
        handle.prepared = route.middleware.isEmpty ? handle.state.prepared : nil
        guard Self.asksForPage(request) else { return response }
        return await followedPage(to: response, for: request, context: context) ?? response
    }

    /// The 403 of an app's route that refuses `request` as another site's (or without the
    /// form token its body needs); nil when it may run.
    private func crossSiteRefusal(_ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse? {
        do {
            try verifyCrossSite(request, context.visitor)
            return nil
        } catch {
            return errorResponse(error, request, context)
        }
    }

    /// `response` compressed for `request` if it should be (then without a prepared head).
    private func compress(_ response: HTTPResponse, for request: HTTPRequest, _ handle: VisitorHandle) -> HTTPResponse {
        let compressed = PageCompression.compressing(response, for: request)
        if compressed.headers.count != response.headers.count { handle.prepared = nil }
        return compressed
    }

    /// The error page of the attempt's body, if it was refused (nil: the route runs).
    private func refusedBodyPage(_ attempt: Attempt, _ context: RequestContext) -> HTTPResponse? {
        attempt.bodyError.map { errorResponse($0, attempt.request, context) }
    }

    /// How the attempt ends when it never asked for the visitor (a JSON route): nothing to
    /// commit. Nil when it did.
    private func settledUnasked(_ response: HTTPResponse, _ handle: VisitorHandle) -> Settled? {
        handle.state.session == nil ? committed(response, cookie: nil, handle) : nil
    }

    /// How a request ends whose task was cancelled before its commit: its changes dropped.
    private func cancelled(_ response: HTTPResponse, _ handle: VisitorHandle) -> AttemptsOutcome {
        handle.state.discardChanges()
        handle.prepared = nil
        return .answer(response, nil)
    }

    /// 409 when every attempt lost to another write.
    private func conflictPage(_ request: HTTPRequest) -> HTTPResponse {
        sessionlessPage(
            HTTPError.conflict("Your settings were changed by many requests at once. Please reload the page."),
            for: request)
    }

    /// Fetches what the visitor needs of the store before the handler runs: on the
    /// blocking pool when that would wait on a file or the network (a session not in
    /// memory, a signed-in user on a store that reads users with a round trip), else here.
    nonisolated(nonsending) func fetch(_ handle: VisitorHandle) async {
        guard wouldWait(handle) else { return fetchHere(handle) }
        await fetchOnPool(handle)
    }

    // The two ways are functions of their own: most requests never wait, and the pool's
    // way copies the request's state there and back.

    private func fetchHere(_ handle: VisitorHandle) {
        handle.state.fetch(store: store, cookieName: configuration.cookieName, now: now)
    }

    private nonisolated(nonsending) func fetchOnPool(_ handle: VisitorHandle) async {
        let (store, cookieName, now) = (store, configuration.cookieName, now)
        let state = handle.state
        let key = handle.state.cookie(cookieName).map(VisitorLocks.key) ?? 0
        do {
            handle.state = try await operations.blockingPool.run(key: key) {
                var state = state
                state.fetch(store: store, cookieName: cookieName, now: now)
                return state
            }
        } catch {
            handle.state.loadFailure = .unavailable("The server is busy. Please try again.")
        }
    }

    /// Whether fetching the visitor could wait on a file or the network: a session
    /// not in memory (SQLite: a cache miss; Redis: no fresh copy), a signed-in user on a
    /// store that reads users with a round trip.
    func wouldWait(_ handle: VisitorHandle) -> Bool {
        // The memory store: nothing to ask, so no cookie is decoded (this runs per request).
        guard !visitors.readsEverythingAtOnce else { return false }
        let user = handle.state.user
        if user != nil, store.waitsForUsers { return true }
        let now = now
        if let cookie = handle.state.cookie(configuration.cookieName), let id = SessionID(cookieValue: cookie),
            !store.readsAtOnce(id, now: now)
        {
            return true
        }
        if let user, !store.readsAtOnce(.user(user), now: now) { return true }
        return false
    }

    /// `chain` around `terminal`; without steps, `terminal` alone, called on this task's
    /// executor (the chain's steps are the app's, each entered as a function of its own).
    /// Not `MiddlewareChain.run` itself: that public method takes closures that need not
    /// be `Sendable`, which a caller on its own executor may not hand to the steps.
    static nonisolated(nonsending) func through(
        _ chain: MiddlewareChain<RequestContext>, _ request: HTTPRequest, _ context: RequestContext,
        recover: @Sendable (any Error, HTTPRequest, RequestContext) -> HTTPResponse,
        terminal: nonisolated(nonsending) @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    ) async -> HTTPResponse {
        guard chain.isEmpty else {
            return await chain.run(request, context, recover: recover) { request, context in
                try await terminal(request, context)
            }
        }
        do {
            return try await terminal(request, context)
        } catch {
            return recover(error, request, context)
        }
    }
}
