// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

extension TabServerApp {
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
