// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

extension TabServerResponder {
    /// What every answer gets on its way out, now or later: the access log's note on
    /// the client a trusted proxy named, and (metrics on) its count and latency under
    /// its route.
    struct Finishing: Sendable {
        let metrics: AppMetrics?
        let method: HTTPMethod
        let started: UInt64
        /// The route label it counts under (set once the router has matched).
        var route: Int
        let note: String?

        init(metrics: AppMetrics?, method: HTTPMethod, started: UInt64, route: Int, note: String?) {
            self.metrics = metrics
            self.method = method
            self.started = started
            self.route = route
            self.note = note
        }

        /// For `request`, counted under `route` (nil: no route, until one matches), timed
        /// from when the metrics step saw it.
        init(_ request: HTTPRequest, origin: RequestOrigin, metrics: AppMetrics?, route: Int? = nil) {
            self.init(
                metrics: metrics, method: request.method,
                started: metrics == nil
                    ? 0 : (request.receivedAt == 0 ? AppMetrics.monotonicNanos() : request.receivedAt),
                route: route ?? metrics?.unmatchedRoute ?? 0,
                note: origin.client != request.remoteAddress ? "client=\(origin.client)" : nil)
        }

        func finish(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            if let note { response.accessLogNote = note }
            metrics?.record(
                route: route, method: method, status: response.status.code,
                nanos: AppMetrics.monotonicNanos() &- started)
            return response
        }
    }
}
