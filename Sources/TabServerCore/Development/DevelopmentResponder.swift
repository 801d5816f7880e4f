// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerWeb

/// What the engine asks in development mode: each request goes to the app as last built
/// from the saved files (`Application.developmentReload`), and while a file does not load,
/// a page gets the problem, named, instead (static files and the live channel still
/// answer, so the page follows the fix). Outside development mode the engine asks the
/// app's responder itself: nothing of this runs.
package final class DevelopmentResponder: HTTPResponder, Sendable {
    private let application: Application

    package init(_ application: Application) {
        self.application = application
    }

    package func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? {
        if let page = problemPage(for: request) { return ResponderAnswer(page) }
        return application.responder.immediateAnswer(to: request)
    }

    package nonisolated(nonsending) func answer(to request: HTTPRequest) async -> ResponderAnswer {
        if let page = problemPage(for: request) { return ResponderAnswer(page) }
        return await application.responder.answer(to: request)
    }

    /// The problem's page for a request of a page while a file does not load; nil for
    /// anything else (a static file, the live channel, a post, a JSON route's answer).
    private func problemPage(for request: HTTPRequest) -> HTTPResponse? {
        guard let problem = application.developmentProblem, request.method == .get || request.method == .head,
            !(request.headers["accept"]?.contains("application/json") ?? false)
        else { return nil }
        let responder = application.responder
        let base = application.configuration.basePath
        let below = request.path.hasPrefix(base) ? String(request.path.dropFirst(base.count)) : request.path
        guard !Self.answeredAnyway.contains(below), responder.libraryFile(request) == nil,
            responder.libraryFile(
                {
                    var inner = request
                    inner.path = below
                    return inner
                }()) == nil
        else { return nil }
        return Self.page(problem, base: base, scripts: responder.pages.views.assets.developmentScripts)
    }

    /// What answers as usual while a file does not load: the live channel (the page follows
    /// the fix through it) and the health checks.
    private static let answeredAnyway: Set<String> = ["/events", "/healthz", "/readyz", "/metrics"]

    /// A page of its own, from a template built in (the app's templates may be what does
    /// not load), following the live channel like every page in development mode.
    static func page(_ problem: DevelopmentProblem, base: String, scripts: [String]) -> HTTPResponse {
        let position = problem.line.map { ":\($0)" + (problem.column.map { ":\($0)" } ?? "") } ?? ""
        let lines: [MustacheValue] = problem.excerpt.map { line in
            let number = String(line.number)
            return [
                "text": .string(String(repeating: " ", count: max(0, 4 - number.count)) + number + " │ " + line.text),
                "isError": .bool(line.isError),
                "caret": line.caret.map { .string(String(repeating: " ", count: 7 + $0) + "^") } ?? .null,
            ]
        }
        let context: MustacheValue = [
            "base": .string(base), "scripts": .array(scripts.map(MustacheValue.string)),
            "where": .string(problem.file + position), "reason": .string(problem.reason), "excerpt": .array(lines),
        ]
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(
            status: .internalServerError, headers: headers, body: .bytes(Array(problemTemplate.render(context).utf8)))
    }

    /// The problem page's template.
    private static let problemTemplate: MustacheTemplate = {
        let source = """
            <!doctype html>
            <html lang="en" data-base="{{base}}" data-dev>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>A file does not load</title>
            {{#scripts}}<script src="{{.}}" defer></script>
            {{/scripts}}</head>
            <body class="dev-error-page" style="font:15px/1.5 system-ui,sans-serif;margin:24px">
            <h1>This file does not load</h1>
            <p class="dev-error-where"><code>{{where}}</code></p>
            <p class="dev-error-reason">{{reason}}</p>
            {{#excerpt.0}}<pre class="dev-error-excerpt" style="background:#111;color:#eee;padding:12px;overflow-x:auto">
            {{/excerpt.0}}{{#excerpt}}{{#isError}}<mark>{{text}}</mark>{{/isError}}{{^isError}}{{text}}{{/isError}}
            {{#caret}}{{.}}
            {{/caret}}{{/excerpt}}{{#excerpt.0}}</pre>
            {{/excerpt.0}}<p>The server keeps running (development mode); this page comes back by itself once the file is fixed.</p>
            </body>
            </html>

            """
        do {
            return try MustacheTemplate(source, name: "development problem")
        } catch {
            preconditionFailure("the built-in problem page does not compile: \(error)")
        }
    }()
}
