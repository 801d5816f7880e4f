// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

extension TabServerResponder {
    /// The cache key of this tab page request, or nil when its answer may not come from
    /// the cache (see `PageAnswerCache`): a signed-in visitor, a query, a prefetch, or a
    /// cookie that names no stored session (that visitor gets a new one); nor the page a
    /// script's post asked for (`RequestState.followsPost`: it shows unwritten changes).
    func pageAnswerKey(_ state: inout RequestState) throws(HTTPError) -> PageAnswerCache.Key? {
        guard state.user == nil, !state.followsPost, Self.mayAnswerFromCache(state.request) else { return nil }
        let style = state.model.controller.model.appearance.platformStyle
        if state.cookie(configuration.cookieName) == nil {
            return pageAnswerKey(state.request, stored: nil, generation: state.model.generation, style: style)
        }
        guard let stored = try state.storedSession(store: store, cookieName: configuration.cookieName, now: now)
        else { return nil }
        return pageAnswerKey(
            state.request, stored: HeldSessionSummary(stored, awaitsCommit: false), generation: state.model.generation,
            style: style)
    }

    /// Whether a request's page may come from the cache at all: a GET (or HEAD) of a tab
    /// page without a query, not a prefetch.
    private static func mayAnswerFromCache(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.query.isEmpty
            && request.path.hasASCIIPrefix("/tabs/") && !isPrefetch(request)
    }

    /// The key of `request`'s page for the visitor whose stored session is `stored` (nil:
    /// none, the first page every visitor without a cookie gets, the same for all of them
    /// within the hour since the signed form token changes hourly).
    private func pageAnswerKey(
        _ request: HTTPRequest, stored: HeldSessionSummary?, generation: Int, style: TabBarAppearance.PlatformStyle
    ) -> PageAnswerCache.Key? {
        guard pages.answers.capacity > 0 else { return nil }
        let language = pages.localizer.negotiatedNumber(
            acceptLanguage: request.headers["accept-language"], chosen: stored?.language)
        return PageAnswerCache.Key(
            session: stored?.id, revision: stored?.revision ?? 0, writeToken: stored?.writeToken ?? 0,
            formToken: stored?.csrfToken, formHour: stored == nil ? FormTokenSigner.hour(now: now) : 0,
            path: request.path,
            variant: pages.variant(request, language: language, generation: generation, style: style),
            gzip: request.acceptsGzip)
    }

    /// The page `body` of a visit that writes the session it shows (`shown`), ready to be
    /// kept for the revision that write makes; nil when it may not be kept (see
    /// `pageAnswerKey`), or the store writes later (Redis) or not at all (a new session).
    func pendingPage(_ body: RenderedPage, shown: Session, state: inout RequestState) throws(HTTPError)
        -> PageAnswerCache.Pending?
    {
        guard pages.answers.capacity > 0, !store.answersLater, state.user == nil, !state.followsPost,
            !state.isNewSession, Self.mayAnswerFromCache(state.request),
            let stored = try state.storedSession(store: store, cookieName: configuration.cookieName, now: now),
            stored.id == shown.id
        else { return nil }
        let language = pages.localizer.negotiatedNumber(
            acceptLanguage: state.request.headers["accept-language"], chosen: shown.language)
        let key = PageAnswerCache.Key(
            session: stored.id, revision: stored.revision + 1, writeToken: 0, formToken: shown.csrfToken,
            formHour: 0, path: state.request.path,
            variant: pages.variant(state.request, language: language, model: state.model),
            gzip: state.request.acceptsGzip)
        return PageAnswerCache.Pending(key: key, entry: makeEntry(body, key: key), shown: shown)
    }

    /// The page to keep once `written` is durable: the request's pending page, if the
    /// store wrote exactly the session it shows under the revision its key names.
    func keepAfterWrite(_ handle: VisitorHandle, written: Session) -> PageAnswerCache.Pending? {
        guard let pending = handle.state.pageAfterWrite, let final = handle.state.session, final == pending.shown,
            written.id == pending.key.session, written.revision == pending.key.revision,
            written.writeToken == pending.key.writeToken, written.csrfToken == pending.key.formToken
        else { return nil }
        return pending
    }

    /// Stores a pending page: its write is durable.
    func keep(_ pending: PageAnswerCache.Pending) {
        pages.answers.store(pending.entry, for: pending.key)
    }

    /// The answer to an anonymous visitor's GET of a tab page seen before, its session
    /// unchanged since, straight from the cache: no request state, no lock, no commit
    /// (the session is only read, and this store's copy is the stored one). Nil when the
    /// page is not cached, or the store must first confirm its copy (Redis) or make a
    /// write durable that the page shows (SQLite's group commit): then the request takes
    /// the ordinary path, which finds the page in the cache all the same.
    func cachedPage(_ request: HTTPRequest, cookie: String?) -> PageProbe {
        guard mayAskCache(request) else { return .notAsked }
        return cachedPage(
            request, session: cookie.map { SessionID(cookieValue: $0).map(CookieSession.id) ?? .malformed } ?? .none)
    }

    /// `cachedPage(_:cookie:)` with the session cookie read from the request's head in
    /// place: no string of its value (an allocation for every page with a session).
    func cachedPage(_ request: HTTPRequest) -> PageProbe {
        guard mayAskCache(request) else { return .notAsked }
        let session: CookieSession =
            switch request.cookie128(configuration.cookieName) {
            case .absent: .none
            case .malformed: .malformed
            case .value(let high, let low): .id(SessionID(high: high, low: low))
            }
        return cachedPage(request, session: session)
    }

    /// What a request's session cookie names.
    enum CookieSession {
        /// No session cookie.
        case none
        /// The id of the session the cookie names (stored or not).
        case id(SessionID)
        /// A cookie that is not an id this server writes.
        case malformed
    }

    /// Whether the page cache may answer `request` at all: asked before its cookie is read.
    private func mayAskCache(_ request: HTTPRequest) -> Bool {
        pages.answers.capacity > 0 && !store.answersLater && Self.mayAnswerFromCache(request)
    }

    private func cachedPage(_ request: HTTPRequest, session: CookieSession) -> PageProbe {
        // Two calls rather than one with an optional summary: destroying an optional of a
        // struct ran through the runtime's generic value witnesses on every page.
        let key: PageAnswerCache.Key?
        switch session {
        case .id(let id):
            guard let held = store.heldSummary(id, now: now), !held.isUserRecord, !held.awaitsCommit else {
                return .notAsked
            }
            key = pageAnswerKey(request, stored: held, generation: tabs.generation, style: tabs.platformStyle)
        case .malformed:
            return .notAsked
        case .none:
            key = pageAnswerKey(request, stored: nil, generation: tabs.generation, style: tabs.platformStyle)
        }
        guard let key else { return .notAsked }
        guard let entry = pages.answers.entry(for: key) else { return .miss }
        return .hit(answer(entry, to: request))
    }

    /// What asking the cache before a request runs found.
    enum PageProbe {
        /// The answer.
        case hit(ResponderAnswer)
        /// Nothing for this request: its handler renders the page.
        case miss
        /// Not asked: the request may not be answered that way (see `cachedPage`).
        case notAsked
    }

    /// The cached answer for `key`, if there is one: the page, or 304 when the browser
    /// holds it already. The request then rests on the stored session unchanged.
    func cachedPageAnswer(_ key: PageAnswerCache.Key, state: inout RequestState) throws(HTTPError) -> HTTPResponse? {
        guard let entry = pages.answers.entry(for: key) else { return nil }
        if key.session != nil,
            let stored = try state.storedSession(store: store, cookieName: configuration.cookieName, now: now)
        {
            state.answersFromCache(stored)
        }
        let answer = answer(entry, to: state.request)
        state.prepared = answer.prepared
        return answer.response
    }

    /// Keeps a rendered page for `key` and answers with it; without a key (the request
    /// changed something it must write, or may not be cached), the page as it is.
    func pageAnswer(_ body: RenderedPage, key: PageAnswerCache.Key?, state: inout RequestState) -> HTTPResponse {
        guard let key else { return html(body, for: state.request) }
        let entry = makeEntry(body, key: key)
        pages.answers.store(entry, for: key)
        let answer = answer(entry, to: state.request)
        state.prepared = answer.prepared
        return answer.response
    }

    /// `"p<hex>"`, or `"p<hex>-gz"` for a gzip'd body, written into the string's own
    /// storage in one pass rather than appended piece by piece: every page entry makes one.
    static func etag(_ tag: UInt64, gzip: Bool) -> String {
        let digits = max(1, (64 - tag.leadingZeroBitCount + 3) / 4)
        let count = 3 + digits + (gzip ? 3 : 0)
        return String(unsafeUninitializedCapacity: count) { out in
            out[0] = UInt8(ascii: "\"")
            out[1] = UInt8(ascii: "p")
            for index in 0..<digits {
                let nibble = UInt8(truncatingIfNeeded: tag >> (4 * UInt64(index)) & 0xf)
                out[1 + digits - index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
            }
            var end = 2 + digits
            if gzip {
                for byte in "-gz".utf8 {
                    out[end] = byte
                    end += 1
                }
            }
            out[end] = UInt8(ascii: "\"")
            return end + 1
        }
    }

    /// Drawn once per process: see `makeEntry`.
    private static let etagSeed = SecureRandom.bytes(16)

    /// The entry's page (with its prepared head), or 304 Not Modified when
    /// `If-None-Match` names its `ETag`.
    func answer(_ entry: PageAnswerCache.Entry, to request: HTTPRequest) -> ResponderAnswer {
        guard let condition = request.headers["if-none-match"], StaticFiles.matches(condition, etag: entry.etag)
        else { return ResponderAnswer(entry.response, prepared: entry.prepared) }
        var headers = HTTPHeaders()
        headers.add("ETag", entry.etag)
        headers.add("Cache-Control", Self.pageCacheControl)
        headers.add("Vary", pages.vary(tabs.platformStyle))
        return ResponderAnswer(HTTPResponse(status: .notModified, headers: headers))
    }

    /// A finished page: gzip'd if asked for and worth it, tagged, marked for the engine to
    /// prepare its head once.
    ///
    /// The tag names the key, not the bytes: the key decides the bytes (that is what makes
    /// the page cacheable), and hashing 9 KB on every miss would cost more than rendering
    /// the bar. Mixed with a seed drawn at start, so a restart (new templates, counters
    /// from zero) never matches an old tag; another instance's tag does not match either,
    /// which costs one full answer, never a wrong one.
    private func makeEntry(_ body: RenderedPage, key: PageAnswerCache.Key) -> PageAnswerCache.Entry {
        var response = html([])
        var hasher = Hasher()
        hasher.combine(Self.etagSeed)
        key.hashEveryField(into: &hasher)
        let tag = UInt64(bitPattern: Int64(hasher.finalize()))
        var gzipped = false
        let sent: SharedBytes
        var refill: PageAnswerCache.Refill? = nil
        if key.gzip, let packed = PageCompression.gzip(body.bytes) {
            sent = SharedBytes(packed)
            gzipped = true
            response.headers.add("Content-Encoding", "gzip")
        } else {
            switch body {
            case .built(let bytes): sent = SharedBytes(bytes)
            case .filled(let filled, let template, let token):
                sent = filled  // filled where it is sent from: no copy
                // The first page of visitors without a cookie is one entry for all of them,
                // and a large page is sent from a file the engine makes: both kept whole.
                if key.session != nil, filled.count <= PageAnswerCache.Entry.largestThinnable {
                    refill = PageAnswerCache.Refill(template: template, token: token)
                }
            }
        }
        let etag = Self.etag(tag, gzip: gzipped)
        response.headers.add("ETag", etag)
        response.body = .shared(sent)
        return PageAnswerCache.Entry(
            response: response, etag: etag, cost: sent.count + PageAnswerCache.Entry.overhead, refill: refill)
    }
}
