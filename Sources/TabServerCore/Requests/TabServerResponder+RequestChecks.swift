// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// What a request is (a navigation, a prefetch) and whether its form may be taken.
extension TabServerResponder {
    /// Whether the browser itself navigates with this request (a form posted without the
    /// script: `Sec-Fetch-Mode: navigate`), so an answer without a page would leave it
    /// where it was.
    static func isNavigation(_ request: HTTPRequest) -> Bool {
        request.headers["sec-fetch-mode"]?.lowercased() == "navigate"
    }

    /// Whether the browser fetches the page ahead of a visit (`Sec-Purpose: prefetch`,
    /// the older `Purpose: prefetch`, Firefox's `X-Moz: prefetch`, or older Safari's
    /// `X-Purpose: preview` for its link previews): such a request must not change the
    /// session.
    static func isPrefetch(_ request: HTTPRequest) -> Bool {
        // One pass over the fields, not a look-up per name: this runs for every page.
        request.headers.firstFieldResult { name, value -> Bool? in
            switch name.utf8.count {
            case 11 where HTTPHeaders.namesEqual(name, "sec-purpose"), 7 where HTTPHeaders.namesEqual(name, "purpose"),
                5 where HTTPHeaders.namesEqual(name, "x-moz"):
                let value = value.lowercased()
                return value.contains("prefetch") || value.contains("prerender") ? true : nil
            case 9 where HTTPHeaders.namesEqual(name, "x-purpose"):
                let value = value.lowercased()
                return value.contains("prefetch") || value.contains("preview") ? true : nil
            default: return nil
            }
        } ?? false
    }

    /// Refuses a form post that did not come from a page of this session, or, for a
    /// visitor with no stored session, from a page this deployment made within the idle
    /// timeout (a signed token: see `FormTokenSigner`; a signed-in visitor's is signed for
    /// them). A post a browser says another origin made is refused first, whatever it
    /// carries (`RequestSite`: `Sec-Fetch-Site`, else `Origin`).
    ///
    /// The token comes in the form's `csrf` field, or for a body of another type (an
    /// action taking JSON from a script) in the `X-CSRF-Token` header. The bar's own
    /// routes (`formOnly`) take forms only: another body is a 415.
    func verifyCSRF(_ request: HTTPRequest, state: RequestState, formOnly: Bool = true) throws(HTTPError) {
        // Fields decoded already came from a form body (see `run`): its type is not asked again.
        if formOnly, request.formFields.isEmpty, !request.hasFormBody {
            throw .unsupportedMediaType(HTTPRequest.formMediaTypes)
        }
        try refuseOtherOrigins(request)
        let isValid: Bool
        if let token = request.formValue("csrf") ?? request.headers["x-csrf-token"],
            let presented = SessionID(cookieValue: token),
            let sessionToken = state.loaded?.csrfToken
        {
            isValid =
                state.isNewSession
                ? visitors.formTokens.isValid(
                    presented, now: now, maxAge: Int64(configuration.sessionIdleTimeout.components.seconds),
                    user: state.user)
                : presented.constantTimeEquals(sessionToken)
        } else {
            isValid = false
        }
        guard isValid else {
            throw HTTPError.forbidden(
                "This form has expired or did not come from this site, so it was not accepted. Nothing was changed.")
        }
    }

    /// 403 for a request a browser says a page of another origin made.
    func refuseOtherOrigins(_ request: HTTPRequest) throws(HTTPError) {
        let site = RequestSite(
            of: request, appHost: appHost(of: request), appScheme: configuration.publicOrigin?.scheme.rawValue)
        guard site == .otherOrigin else { return }
        throw HTTPError.forbidden("This form was sent from another site, so it was not accepted.")
    }

    /// The host visitors reach the app at: the public origin's when configured, else the
    /// one a trusted proxy forwarded, else the request's `Host`.
    func appHost(of request: HTTPRequest) -> String? {
        if let publicOrigin = configuration.publicOrigin { return publicOrigin.host }
        return configuration.trustedProxies.origin(of: request).host ?? request.headers["host"]
    }

    /// What a route that refuses other sites' requests (an app's own, see
    /// `CrossSiteRequests`) checks before anything of it runs: the site, and for a body a
    /// page elsewhere can send without asking first (a form, `text/plain`), the form token.
    func verifyCrossSite(_ request: HTTPRequest, _ handle: VisitorHandle) throws(HTTPError) {
        try refuseOtherOrigins(request)
        guard request.hasSimpleBody else { return }
        try verifyFormToken(request, handle)
    }

    /// Checks `request`'s form token (and site) against the visitor's without making the
    /// request rest on their session: a route that never uses the visitor has nothing to
    /// confirm or write afterwards (a stale copy would otherwise run it again). The token of
    /// a stored session never changes, so the copy fetched before the route ran will do.
    func verifyFormToken(_ request: HTTPRequest, _ handle: VisitorHandle) throws(HTTPError) {
        try refuseOtherOrigins(request)
        let presented = (request.formValue("csrf") ?? request.headers["x-csrf-token"]).flatMap {
            SessionID(cookieValue: $0)
        }
        let expected: SessionID?
        if let loaded = handle.state.loaded {
            // The visitor is loaded already (the route asked for it): its token as its pages carry it.
            expected = handle.state.isNewSession ? nil : loaded.csrfToken
        } else if let stored = try handle.state.storedSession(
            store: store, cookieName: configuration.cookieName, now: now)
        {
            expected = stored.csrfToken
        } else {
            expected = nil
        }
        let isValid: Bool
        switch (presented, expected) {
        case (let presented?, let expected?): isValid = presented.constantTimeEquals(expected)
        case (let presented?, nil):
            isValid = visitors.formTokens.isValid(
                presented, now: now, maxAge: Int64(configuration.sessionIdleTimeout.components.seconds),
                user: handle.state.user)
        case (nil, _): isValid = false
        }
        guard isValid else {
            throw HTTPError.forbidden(
                "This form has expired or did not come from this site, so it was not accepted. Nothing was changed.")
        }
    }
}

extension HTTPRequest {
    /// Whether the body is of a type a page of any site may send without a CORS preflight:
    /// a url-encoded or multipart form (even an empty one), `text/plain`, or bytes of no
    /// type. A request with neither a body nor a type is not: no form sends one.
    var hasSimpleBody: Bool {
        guard let type = mediaType else { return !body.isEmpty }
        return type.essence == MediaType.urlEncodedForm || type.essence == MediaType.multipartForm
            || type.essence == "text/plain"
    }
}
