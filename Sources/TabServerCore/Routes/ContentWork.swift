// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// Slow work a page or an action asked for (`TabPageLoader`, `TabAction(performing:)`):
/// run as a Swift task, off the engine's threads and outside the visitor's lock; the
/// request then runs again with its result (`ContentResult`), its session loaded afresh.
enum ContentWork: Sendable {
    case page(TabPageLoader, TabPageRequest)
    case action(@Sendable (TabActionRequest) async throws -> TabActionResult, TabActionRequest)

    /// Runs the work; an error that is not an `HTTPError` is reported through `report`
    /// and answered as a 500.
    func run(report: @Sendable (any Error) -> HTTPError) async -> ContentResult {
        switch self {
        case .page(let loader, let request):
            do {
                return .page(.success(try await loader.load(request)), tab: request.tab.id, location: request.location)
            } catch {
                return .page(.failure(report(error)), tab: request.tab.id, location: request.location)
            }
        case .action(let perform, let request):
            do {
                return .action(.success(try await perform(request)), tab: request.tab.id, location: request.location)
            } catch {
                return .action(.failure(report(error)), tab: request.tab.id, location: request.location)
            }
        }
    }
}

/// What slow work gave, for the request run again. It names the tab and location it
/// was for, so it is used only there.
enum ContentResult: Sendable {
    case page(Result<TabPage?, HTTPError>, tab: String, location: [Substring])
    case action(Result<TabActionResult, HTTPError>, tab: String, location: [Substring])

    /// The page loaded for `tab` at `location`, if this is it.
    func page(tab id: String, location: [Substring]) -> Result<TabPage?, HTTPError>? {
        guard case .page(let result, id, let at) = self, at == location else { return nil }
        return result
    }

    /// The action's result for `tab` at `location`, if this is it.
    func action(tab id: String, location: [Substring]) -> Result<TabActionResult, HTTPError>? {
        guard case .action(let result, id, let at) = self, at == location else { return nil }
        return result
    }
}
