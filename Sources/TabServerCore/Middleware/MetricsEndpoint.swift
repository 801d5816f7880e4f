// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerThreads
import TabServerWeb

/// The library's first step: `GET /metrics` (at the root, whatever the base path) when
/// metrics are on, and the time every other request is counted from. The exposition is
/// made on a worker: it asks the store whether it is up, which may wait.
struct MetricsEndpoint: Middleware, CustomStringConvertible {
    let metrics: AppMetrics
    let trust: ProxyTrust
    let workers: LaneQueue
    let sources: MetricsSources

    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        let started = AppMetrics.monotonicNanos()
        if request.path == "/metrics" {
            let deferred = DeferredResponse()
            let (metrics, trust, sources) = (metrics, trust, sources)
            let added = workers.add(key: 0) {
                let response = TabServerResponder.metricsResponse(
                    request, metrics: metrics, sources: sources, trust: trust)
                metrics.record(
                    route: metrics.metricsRoute, method: request.method, status: response.status.code,
                    nanos: AppMetrics.monotonicNanos() &- started)
                deferred.complete(response)
            }
            return added ? .later(deferred) : .now(HTTPResponse.text("Busy.\n", status: .serviceUnavailable))
        }
        var request = request
        if request.receivedAt == 0 { request.receivedAt = started }
        return next(request)
    }

    var description: String { "metrics" }
}
