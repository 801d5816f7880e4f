// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// The library's step for the files of `Public/` (and the app's overlays): a GET or
/// HEAD of one is answered from memory here, before any session is looked up.
struct StaticFilesStep: Middleware, CustomStringConvertible {
    let files: StaticFiles
    let trust: ProxyTrust
    let metrics: AppMetrics?

    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        guard request.method == .get || request.method == .head,
            let file = files.response(for: request, path: request.path)
        else { return next(request) }
        let finishing = TabServerResponder.Finishing(
            request, origin: trust.origin(of: request), metrics: metrics, route: metrics?.staticRoute)
        return .now(finishing.finish(file))
    }

    var description: String { "static files" }
}
