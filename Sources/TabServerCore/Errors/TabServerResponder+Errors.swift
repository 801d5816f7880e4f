// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerThreads
import TabServerWeb

/// The one place where failures become answers. An `HTTPResponseError` (`HTTPError`,
/// `FieldError`, `RequestDecodingError`, an app's own) is answered with its status: the
/// app's error page for a browser (with the bar: a 404 is still inside the app), an RFC 9457
/// `application/problem+json` body for a client that sent or asked for JSON. Any other
/// error is a fault of the app's: 500, logged once. Nothing a failed request changed is
/// stored.
extension TabServerResponder {
    /// The answer for `error` thrown while answering `request`.
    func errorResponse(_ error: any Error, _ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse {
        let handle = context.visitor
        handle.state.discardChanges()
        handle.prepared = nil
        let failure = httpError(error, request)
        if Self.wantsJSON(request) { return problem(failure) }
        return errorPage(failure, state: &handle.state)
    }

    /// `error` as the `HTTPError` it is answered with (unknown errors logged here).
    func httpError(_ error: any Error, _ request: HTTPRequest) -> HTTPError {
        switch error {
        case let error as HTTPError:
            return error
        case let error as any HTTPResponseError:
            var answer = HTTPError(error.status, error.message, field: error.fieldErrors.first?.field)
            answer.headers = error.headers
            answer.fieldErrors = error.fieldErrors
            return answer
        case is CancellationError:
            // The client went away and the handler stopped: not a failure of the app, and
            // an answer no one reads.
            return HTTPError(.serviceUnavailable, "The request was cancelled.")
        case is BlockingPool.Busy:
            var busy = HTTPError.unavailable("The server is busy. Please try again in a moment.")
            busy.headers.add("Retry-After", "1")
            return busy
        default:
            log?.write(
                "\(request.method) \(String(request.path.prefix(200))) failed: \(String(describing: error).prefix(500))",
                level: .error)
            return HTTPError.internalError()
        }
    }

    /// Whether the client sent JSON or asks for it rather than a page: then errors are
    /// problem+json.
    static func wantsJSON(_ request: HTTPRequest) -> Bool {
        if let essence = request.mediaType?.essence, essence == MediaType.json || essence.hasSuffix("+json") {
            return true
        }
        guard let accept = request.headers["accept"]?.lowercased() else { return false }
        guard let json = accept.firstRange(of: "json") else { return false }
        guard let html = accept.firstRange(of: "text/html") else { return true }
        return json.lowerBound < html.lowerBound
    }

    /// RFC 9457 problem details: status, title, detail, and the fields at fault.
    func problem(_ failure: HTTPError) -> HTTPResponse {
        struct Problem: Encodable {
            struct Field: Encodable {
                let field: String
                let detail: String
            }
            let type = "about:blank"
            let title: String
            let status: Int
            let detail: String
            let errors: [Field]?
        }
        let fields = failure.fieldErrors.map { Problem.Field(field: $0.field, detail: $0.message) }
        let body = Problem(
            title: failure.status.reason, status: failure.status.code, detail: failure.message,
            errors: fields.isEmpty ? nil : fields)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/problem+json")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Content-Type-Options", "nosniff")
        for field in failure.headers { headers.add(field.name, field.value) }
        let bytes = (try? encoder.encode(body)).map(Array.init) ?? Array("{}".utf8)
        return HTTPResponse(status: failure.status, headers: headers, body: .bytes(bytes))
    }

    /// Renders any failure as a page with its status. Pages for the visitor keep the tab
    /// bar (a 404 is still inside the app; under `/tabs/<tab>/…` that tab shows selected);
    /// when the session itself is the problem (`withSession: false`), the page has no bar
    /// and no cookie is touched.
    func errorPage(_ failure: HTTPError, state: inout RequestState, withSession: Bool = true) -> HTTPResponse {
        var session: Session? = nil
        if withSession && failure.status != .serviceUnavailable {
            session = try? visitor(&state)
            if var shown = session, let tab = Self.tabOfPath(state.request.path),
                state.controller.model.tab(id: tab) != nil
            {
                // Shown only: nothing of it is stored (the request failed).
                shown.state.selectedTabID = tab
                session = shown
            }
        }
        let language = language(state.request, session)
        var response = html(
            pages.views.errorPage(
                failure, session: session, model: state.model, language: language,
                variant: pages.variant(state, language)),
            status: failure.status)
        for field in failure.headers { response.headers.add(field.name, field.value) }
        return response
    }

    /// The tab id of a path under `/tabs/`, if it is one.
    static func tabOfPath(_ path: String) -> String? {
        guard path.hasPrefix("/tabs/") else { return nil }
        let rest = path.dropFirst("/tabs/".count)
        let id = rest.prefix { $0 != "/" }
        return id.isEmpty ? nil : String(id)
    }
}
