// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP

/// What a form posted to a location inside a tab does: the web side of a view
/// controller's own actions. The library checks the form's CSRF token (the one the bar
/// uses) before an action runs, never runs it for a prefetch, and answers its result
/// with post/redirect/get (`TabActionResult`). An action that throws a `FieldError` or a
/// `RequestDecodingError` (what `request.decode(as:)` throws for a form that does not
/// decode) gets its tab's page at the same location shown again with 422: the form made
/// with `TabForm(…, context:)` shows the values sent and each field's message; nothing of
/// the request is stored.
///
/// ```swift
/// TabAction(confirm: { _, context in "Delete “\(context.form.value("title") ?? "")”?" }) { request, context in
///     try await notebook.delete(context.parameters.require("id", as: Int.self))
///     return .redirect(to: "", notice: "Deleted")
/// }
/// ```
public struct TabAction: Sendable {
    /// Runs the action.
    let perform: nonisolated(nonsending) @Sendable (HTTPRequest, RequestContext) async throws -> TabActionResult
    /// The question asked before the action runs (a delete), or nil to run it at once.
    /// Asked like a `shouldSelect` that asks for confirmation: a page with the question,
    /// Confirm posting the same form again, confirmed, and Cancel going back.
    let confirmation: (@Sendable (HTTPRequest, RequestContext) -> String?)?

    /// An action running `perform`, after asking `confirm`'s question when it gives one.
    public init(
        confirm: (@Sendable (HTTPRequest, RequestContext) -> String?)? = nil,
        _ perform:
            nonisolated(nonsending) @escaping @Sendable (HTTPRequest, RequestContext) async throws -> TabActionResult
    ) {
        self.perform = perform
        confirmation = confirm
    }
}
