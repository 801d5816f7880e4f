// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// What a form posted to a location inside a tab does: the web side of a view
/// controller's own actions. The library checks the form's CSRF token (the one the bar
/// uses) before an action runs, never runs it for a prefetch, and answers its result
/// with post/redirect/get (`TabActionResult`).
///
/// ```swift
/// TabAction(confirm: { request in "Delete “\(request.form.value("title") ?? "")”?" }) { request in
///     try notebook.delete(request.parameters["id"])
///     return .redirect(to: "", notice: "Deleted")
/// }
/// ```
public struct TabAction: Sendable {
    enum Work: Sendable {
        case now(@Sendable (TabActionRequest) throws -> TabActionResult)
        case later(@Sendable (TabActionRequest) async throws -> TabActionResult)
    }

    let work: Work
    /// The question asked before the action runs (a delete), or nil to run it at once.
    /// Asked like a `shouldSelect` that asks for confirmation: a page with the question,
    /// Confirm posting the same form again, confirmed, and Cancel going back.
    let confirmation: (@Sendable (TabActionRequest) -> String?)?

    /// An action run on the engine's thread: keep it quick.
    public init(
        confirm: (@Sendable (TabActionRequest) -> String?)? = nil,
        _ perform: @escaping @Sendable (TabActionRequest) throws -> TabActionResult
    ) {
        work = .now(perform)
        confirmation = confirm
    }

    /// An action run as a Swift task, off the engine's threads (slow work: a database,
    /// another service); the visitor's answer waits for it, nobody else does.
    public init(
        confirm: (@Sendable (TabActionRequest) -> String?)? = nil,
        performing perform: @escaping @Sendable (TabActionRequest) async throws -> TabActionResult
    ) {
        work = .later(perform)
        confirmation = confirm
    }
}

extension TabAction {
    /// The same action, its requests carrying what its pattern captured.
    func capturing(_ parameters: RouteParameters) -> TabAction {
        let confirmation = confirmation.map { ask in
            { @Sendable (request: TabActionRequest) -> String? in ask(request.with(parameters)) }
        }
        switch work {
        case .now(let perform):
            return TabAction(confirm: confirmation) { (request: TabActionRequest) throws in
                try perform(request.with(parameters))
            }
        case .later(let perform):
            return TabAction(confirm: confirmation) { (request: TabActionRequest) async throws in
                try await perform(request.with(parameters))
            }
        }
    }
}

extension TabActionRequest {
    func with(_ parameters: RouteParameters) -> TabActionRequest {
        var request = self
        request.parameters = parameters
        return request
    }
}
