// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// The library's first step: `GET /metrics` (at the root, whatever the base path) when
/// metrics are on, and the time every other request is counted from.
struct MetricsEndpoint: Middleware, CustomStringConvertible {
    let metrics: AppMetrics
    let store: any SessionStore
    let events: EventHub
    let trust: ProxyTrust
    let pageAnswers: PageAnswerCache

    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        let started = AppMetrics.monotonicNanos()
        if request.path == "/metrics" {
            let response = TabServerResponder.metricsResponse(
                request, metrics: metrics, store: store, events: events, trust: trust, pageAnswers: pageAnswers)
            metrics.record(
                route: metrics.metricsRoute, method: request.method, status: response.status.code,
                nanos: AppMetrics.monotonicNanos() &- started)
            return .now(response)
        }
        var request = request
        if request.receivedAt == 0 { request.receivedAt = started }
        return next(request)
    }

    var description: String { "metrics" }
}
