// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerThreads
import TabServerWeb

/// Everything one request knows besides the request itself, handed to every handler and
/// middleware step: the path's parameters, the visitor (their session, the signed-in
/// user, their language, the form token), the tab model, typed per-visitor values,
/// values middleware found, and the blocking pool. One value per request; copies share the
/// visitor, so a value set in a handler is stored with the request's one commit.
///
/// ```swift
/// router.get("/api/items/{index}") { request, context in
///     let index = try context.parameters.require("index", as: Int.self)
///     return try await context.blocking { try store.item(at: index) }
/// }
/// ```
public struct RequestContext: RouterContext {
    /// What the matched route's pattern captured.
    public var parameters = RouteParameters()
    /// Values middleware steps hand to what follows them.
    public var values = ContextValues()
    /// The visitor and the app this request is for.
    let visitor: VisitorHandle
    /// What a tab's page or action knows beyond other routes (nil on other routes).
    private var tabParts: TabParts?

    /// The tab a tab's page or action is for, its title in the visitor's language (nil on
    /// other routes).
    public var tab: Tab? { tabParts?.tab }
    /// The path below the tab's root, split at `/` (`[]` is the root; empty on other routes).
    public var location: [Substring] { tabParts?.location ?? [] }
    /// A form that did not decode or validate (a 422), when its page is shown again: what
    /// was sent and what is wrong, for `TabForm` to show beside each input.
    public var submission: FormSubmission? { tabParts?.submission }
    /// The form posted to a tab's action: its text fields and (multipart) files, the
    /// library's own (`csrf`, `confirmed`) left out. Empty elsewhere.
    public var form: FormData { tabParts?.form ?? FormData() }
    /// Whether the visitor confirmed the action's question (see `TabAction`).
    public var isConfirmed: Bool { tabParts?.isConfirmed ?? false }

    /// The context of the page or action of `tab` at `location` (with its posted `form`).
    func entering(
        _ tab: Tab, location: [Substring], form: FormData = FormData(), isConfirmed: Bool = false
    ) -> RequestContext {
        var context = self
        context.tabParts = TabParts(
            tab: tab, location: location, submission: nil, form: form, isConfirmed: isConfirmed)
        return context
    }

    /// The context of the page showing a refused form again.
    func showing(_ submission: FormSubmission) -> RequestContext {
        var context = self
        context.tabParts = TabParts(
            tab: tab, location: location, submission: submission, form: form, isConfirmed: isConfirmed)
        return context
    }

    /// The tab's part of the context: one reference, so that each copy of the context
    /// (every middleware step and async function on the way takes one, in its frame)
    /// stays a few words long.
    private final class TabParts: Sendable {
        let tab: Tab?
        let location: [Substring]
        let submission: FormSubmission?
        let form: FormData
        let isConfirmed: Bool

        init(tab: Tab?, location: [Substring], submission: FormSubmission?, form: FormData, isConfirmed: Bool) {
            (self.tab, self.location, self.submission) = (tab, location, submission)
            (self.form, self.isConfirmed) = (form, isConfirmed)
        }
    }

    init(visitor: VisitorHandle) {
        self.visitor = visitor
    }

    /// The signed-in user, as the authenticating proxy named them (`--identity-header`);
    /// nil for an anonymous visitor.
    public var user: String? { visitor.state.user }

    /// The visitor's UI language (a BCP 47 code, e.g. "de"): the one they chose, else the
    /// best match for their browser's.
    public var language: String { visitor.language.code }

    /// The token the visitor's forms carry (`<input type="hidden" name="csrf">`), or a
    /// script's posts in `X-CSRF-Token`.
    public var csrfToken: String { visitor.csrfToken }

    /// Checks that `request` was made by a page of this app for this visitor: no browser
    /// says another origin made it, and it carries the visitor's form token (the `csrf`
    /// field of a form, else the `X-CSRF-Token` header). Throws 403 otherwise, before
    /// anything is changed.
    ///
    /// An app's own routes that change something do the first check by themselves, and
    /// the second for form bodies (see `CrossSiteRequests`); call this where a route also
    /// wants the token of a script's JSON, or in a route that takes other sites'
    /// requests for some callers only.
    ///
    /// ```swift
    /// app.router.post("/api/notes") { request, context in
    ///     try context.verifyFormToken(request)
    ///     return try await notes.add(request.decode(as: NewNote.self))
    /// }
    /// ```
    public func verifyFormToken(_ request: HTTPRequest) throws(HTTPError) {
        try visitor.app.verifyFormToken(request, visitor)
    }

    /// The app's own part of this request's page variant (`Application.pageVariant`); ""
    /// when it adds none.
    public var pageVariant: String { visitor.app.pages.variantPart?.decide(visitor.state.request) ?? "" }

    /// The app's base path ("" or e.g. "/app"): prefix links with it.
    public var basePath: String { visitor.app.configuration.basePath }

    /// The request as the client made it (its address, scheme and host as a trusted
    /// proxy reports them).
    public var origin: RequestOrigin { visitor.origin }

    /// The shared tab model as it was when the request started.
    public var tabs: ModelSnapshot { visitor.state.model }

    /// The value of `type` the app keeps for this visitor, nil when none is stored (or
    /// the stored one no longer decodes as `type`).
    public func visitorValue<Value: VisitorValue>(_ type: Value.Type) -> Value? {
        visitor.value(type)
    }

    /// Every value the app keeps for this visitor, by key, as stored (JSON text for a
    /// `VisitorValue`; an action's `.redirect(visitorValues:)` replaces them all).
    public var visitorValues: [String: String] { visitor.session?.appValues ?? [:] }

    /// Stores `value` for this visitor (nil removes it), with the request's commit: an
    /// action's 303, a page's answer. Nothing is stored when the request fails. A
    /// middleware step stores it before it calls `next` (once `next` returns, the request
    /// is committed), as it computed it outside the visitor's lock: change a value from its
    /// stored one in a route or action. A request no route answers (a static file, a 404)
    /// commits nothing.
    public func setVisitorValue<Value: VisitorValue>(_ value: Value?) {
        visitor.setValue(value, key: Value.key)
    }

    /// Runs `work`, which may block (a database call, a file), on the server's blocking
    /// pool, so no engine loop waits for it; the handler goes on when it is done. 503 when
    /// the pool is full. When the request is cancelled (its client gone) the handler stops
    /// waiting with `CancellationError`: work not yet started never runs, and work already
    /// running finishes on its thread, its result dropped.
    public func blocking<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await visitor.app.operations.blockingPool.runCancellable(work)
    }

    /// Where the app's server messages go (its own name starts each line).
    public var log: LogSink { visitor.app.log ?? .standardError }
}
