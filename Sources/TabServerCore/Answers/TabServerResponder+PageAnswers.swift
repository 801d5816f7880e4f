// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP
import TabServerSessions
import TabServerWeb

extension TabServerResponder {
    /// The cache key of this tab page request, or nil when its answer may not come from
    /// the cache (see `PageAnswerCache`): a signed-in visitor, a query, a prefetch, or a
    /// cookie that names no stored session (that visitor gets a new one).
    func pageAnswerKey(_ state: inout RequestState) throws(HTTPError) -> PageAnswerCache.Key? {
        if let known = state.pageAnswerKey { return known }
        let key = try makePageAnswerKey(&state)
        state.pageAnswerKey = .some(key)
        return key
    }

    private func makePageAnswerKey(_ state: inout RequestState) throws(HTTPError) -> PageAnswerCache.Key? {
        let request = state.request
        guard pageAnswers.capacity > 0, state.user == nil, request.query.isEmpty, !Self.isPrefetch(request) else {
            return nil
        }
        let language = request.headers["accept-language"] ?? ""
        let gzip = request.acceptsGzip
        guard state.cookie(configuration.cookieName) != nil else {
            // The first page of every visitor without a cookie: the same bytes for all
            // of them within the hour (the signed form token changes hourly).
            return PageAnswerCache.Key(
                session: nil, revision: 0, writeToken: 0, formToken: formTokens.token(now: now),
                generation: state.model.generation, path: request.path, acceptLanguage: language, gzip: gzip)
        }
        guard
            let stored = try state.storedSession(store: store, cookieName: configuration.cookieName, now: now)
        else { return nil }
        return PageAnswerCache.Key(
            session: stored.id, revision: stored.revision, writeToken: stored.writeToken, formToken: stored.csrfToken,
            generation: state.model.generation, path: request.path, acceptLanguage: language, gzip: gzip)
    }

    /// A request state for `request` whose answer is a cached tab page, with the stored
    /// session loaded, or nil: not a GET of a tab page, or no such page cached.
    func pageAnswerProbe(
        _ request: HTTPRequest, cookie: String, resolution: Router<RequestState>.Resolution
    ) -> RequestState? {
        guard request.method == .get || request.method == .head, request.path.hasPrefix("/tabs/"),
            case .found = resolution
        else { return nil }
        var state = RequestState(app: self, request: request, model: tabs.current)
        state.knowCookie(cookie)
        guard let key = try? pageAnswerKey(&state), let entry = pageAnswers.entry(for: key) else { return nil }
        state.pageAnswerEntry = entry
        return state
    }

    /// The cached answer for `key`, if there is one: the page, or 304 when the browser
    /// holds it already. The request then rests on the stored session unchanged.
    func cachedPageAnswer(_ key: PageAnswerCache.Key, state: inout RequestState) throws(HTTPError) -> HTTPResponse? {
        guard let entry = state.pageAnswerEntry ?? pageAnswers.entry(for: key) else { return nil }
        if key.session != nil,
            let stored = try state.storedSession(store: store, cookieName: configuration.cookieName, now: now)
        {
            state.answersFromCache(stored)
        }
        return answer(entry, to: state.request)
    }

    /// Keeps a rendered page for `key` and answers with it, when the request changed
    /// nothing it would have to write (`unchanged`); else the page as it is.
    func pageAnswer(
        _ body: [UInt8], key: PageAnswerCache.Key?, unchanged: Bool, request: HTTPRequest
    ) -> HTTPResponse {
        guard let key, unchanged else { return html(body) }
        let entry = makeEntry(body, key: key)
        pageAnswers.store(entry, for: key)
        return answer(entry, to: request)
    }

    /// Drawn once per process: see `makeEntry`.
    private static let etagSeed = SecureRandom.bytes(16)

    /// The entry's page, or 304 Not Modified when `If-None-Match` names its `ETag`.
    private func answer(_ entry: PageAnswerCache.Entry, to request: HTTPRequest) -> HTTPResponse {
        guard let condition = request.headers["if-none-match"], StaticFiles.matches(condition, etag: entry.etag)
        else { return entry.response }
        var headers = HTTPHeaders()
        headers.add("ETag", entry.etag)
        headers.add("Cache-Control", Self.pageCacheControl)
        headers.add("Vary", "Accept-Encoding")
        return HTTPResponse(status: .notModified, headers: headers)
    }

    /// A finished page: gzip'd if asked for and worth it, tagged, marked for the engine to
    /// prepare its head once.
    ///
    /// The tag names the key, not the bytes: the key decides the bytes (that is what makes
    /// the page cacheable), and hashing 9 KB on every miss would cost more than rendering
    /// the bar. Mixed with a seed drawn at start, so a restart (new templates, counters
    /// from zero) never matches an old tag; another instance's tag does not match either,
    /// which costs one full answer, never a wrong one.
    private func makeEntry(_ body: [UInt8], key: PageAnswerCache.Key) -> PageAnswerCache.Entry {
        var response = html(body)
        var sent = body
        var hasher = Hasher()
        hasher.combine(Self.etagSeed)
        hasher.combine(key)
        var etag = "\"p" + String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 16)
        if key.gzip, let packed = PageCompression.gzip(body) {
            sent = packed
            etag += "-gz"
            response.headers.add("Content-Encoding", "gzip")
        }
        etag += "\""
        response.headers.add("ETag", etag)
        response.body = .shared(SharedBytes(sent))
        response.cache = ResponseCache()
        return PageAnswerCache.Entry(response: response, etag: etag, cost: sent.count + 512)
    }
}
