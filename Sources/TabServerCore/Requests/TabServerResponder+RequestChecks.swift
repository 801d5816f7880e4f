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
    /// or the older `Purpose: prefetch`): such a request must not change the session.
    static func isPrefetch(_ request: HTTPRequest) -> Bool {
        // One pass over the fields, not a look-up per name: this runs for every page.
        request.headers.firstFieldResult { name, value -> Bool? in
            switch name.utf8.count {
            case 11 where HTTPHeaders.namesEqual(name, "sec-purpose"), 7 where HTTPHeaders.namesEqual(name, "purpose"),
                9 where HTTPHeaders.namesEqual(name, "x-purpose"), 5 where HTTPHeaders.namesEqual(name, "x-moz"):
                let value = value.lowercased()
                return value.contains("prefetch") || value.contains("prerender") ? true : nil
            default: return nil
            }
        } ?? false
    }

    /// Refuses a form post that did not come from a page of this session, or, for a
    /// visitor with no stored session, from a page this deployment made within the idle
    /// timeout (a signed token: see `FormTokenSigner`).
    ///
    /// The token comes in the form's `csrf` field, or for a body of another type (an
    /// action taking JSON from a script) in the `X-CSRF-Token` header. The bar's own
    /// routes (`formOnly`) take forms only: another body is a 415.
    func verifyCSRF(_ request: HTTPRequest, state: RequestState, formOnly: Bool = true) throws(HTTPError) {
        // Fields decoded already came from a form body (see `run`): its type is not asked again.
        if formOnly, request.formFields.isEmpty, !request.hasFormBody {
            throw .unsupportedMediaType(HTTPRequest.formMediaTypes)
        }
        if request.headers["sec-fetch-site"]?.lowercased() == "cross-site" {
            throw HTTPError.forbidden("This form was sent from another site, so it was not accepted.")
        }
        let isValid: Bool
        if let token = request.formValue("csrf") ?? request.headers["x-csrf-token"],
            let presented = SessionID(cookieValue: token),
            let sessionToken = state.loaded?.csrfToken
        {
            isValid =
                state.isNewSession
                ? formTokens.isValid(
                    presented, now: now, maxAge: Int64(configuration.sessionIdleTimeout.components.seconds))
                : presented.constantTimeEquals(sessionToken)
        } else {
            isValid = false
        }
        guard isValid else {
            throw HTTPError.forbidden(
                "This form has expired or did not come from this site, so it was not accepted. Nothing was changed.")
        }
    }
}
