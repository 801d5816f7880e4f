// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerThreads

extension TabServerResponder {
    /// Worker lanes for requests that would wait on the store (see `wouldWait`), and for
    /// the probes that do (`/readyz`, `/metrics`).
    static let workLaneCount = 4
    /// Requests a lane holds before it refuses more with 503: a store that answers takes
    /// well under a millisecond a request; 256 queued means it does not.
    static let workLaneCapacity = 256

    /// Whether answering `request` on this thread could wait on a file, the network or
    /// a busy visitor: a session not in memory (SQLite: a cache miss; Redis: no fresh
    /// copy), a signed-in user on a store that reads users synchronously, the readiness
    /// probe (it settles the store's queued writes and asks the store). An engine thread
    /// hands such a request to a worker instead (`runOnWorker`).
    func wouldWait(_ request: HTTPRequest, cookie: String?, user: String?) -> Bool {
        if request.path == "/readyz" { return true }
        // The memory store: nothing to ask (the page path's cost, measured per request).
        guard !readsEverythingAtOnce else { return false }
        if user != nil, store.waitsForUsers { return true }
        let now = now
        if let cookie, let id = SessionID(cookieValue: cookie), !store.readsAtOnce(id, now: now) { return true }
        if let user, !store.readsAtOnce(.user(user), now: now) { return true }
        return false
    }

    /// Runs the request on the worker lane of its visitor (so one visitor's requests keep
    /// their order) and answers when it is done; the calling engine thread goes on with
    /// other connections. A full lane answers 503 at once.
    func runOnWorker(_ request: HTTPRequest, cookie: String?, user: String?, finishing: Finishing) -> HTTPAnswer {
        let deferred = DeferredResponse()
        let key = cookie.map(SessionLocks.hash) ?? user.map(SessionLocks.hash) ?? 0
        let added = workLanes.add(key: key) { [self] in
            var again = finishing
            let origin = configuration.trustedProxies.origin(of: request)
            Self.complete(deferred, with: routes(request, origin: origin, finishing: &again, onWorker: true))
        }
        guard added else { return .now(finishing.finish(busyPage())) }
        return .later(deferred)
    }

    /// `work`'s response, made on a worker (it may wait on the store), answered when it
    /// is there; 503 at once when the lanes are full.
    func answerOnWorker(_ work: @escaping @Sendable () -> HTTPResponse) -> HTTPAnswer {
        let deferred = DeferredResponse()
        guard workLanes.add(key: 0, { deferred.complete(work()) }) else { return .now(busyPage()) }
        return .later(deferred)
    }

    /// 503 for a request no worker can take now.
    func busyPage() -> HTTPResponse {
        var response = HTTPResponse.text("The server is busy. Please try again.\n", status: .serviceUnavailable)
        response.headers.add("Retry-After", "1")
        return response
    }
}
