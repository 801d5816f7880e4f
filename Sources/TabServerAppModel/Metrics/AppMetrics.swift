// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The app's Prometheus metrics: requests by route pattern, method and status, latency
/// per route, session store errors and latency, and the engine's connection counts.
///
/// Labels come from fixed lists (router patterns, a few methods, known statuses), so the
/// number of series is bounded whatever clients send. Every counter exists from the start:
/// recording a request is a handful of relaxed atomic adds, with no lock and no allocation.
///
/// ```swift
/// configuration.metrics = true                  // --metrics on
/// let app = try buildApplication(configuration, content: Notes())
/// app.metrics?.attach(engine: server)           // AppServer does this
/// // GET /metrics from loopback or a trusted proxy → text/plain; version=0.0.4
/// ```
public final class AppMetrics: Sendable {
    /// Route labels: the router's patterns, then the pseudo-routes below.
    let routes: [String]
    /// Index of the `/metrics` pseudo-route.
    package let metricsRoute: Int
    /// Index of the route label for static files.
    package let staticRoute: Int
    /// Index of the route label for requests no route matched (404s, paths outside the base path).
    package let unmatchedRoute: Int

    static let methods = ["GET", "HEAD", "POST", "other"]
    /// Statuses with their own label; any other is counted under its class ("4xx").
    static let statuses = [
        200, 204, 301, 302, 303, 304, 400, 403, 404, 405, 409, 413, 414, 415, 422, 431, 500, 501, 503,
    ]
    static let statusLabels = statuses.map(String.init) + ["1xx", "2xx", "3xx", "4xx", "5xx"]

    /// routes × methods × status labels, flattened.
    private let requests: CounterBlock
    /// One histogram per route.
    let durations: LatencyHistograms
    /// Session store calls by operation (`StoreOperation`): errors and latency.
    let storeErrors: CounterBlock
    let storeLatency: LatencyHistograms
    private let engine = Mutex<(any EngineStatistics)?>(nil)

    /// Metrics for an app whose router has these patterns.
    package init(routePatterns: [String]) {
        routes = routePatterns + ["/metrics", "static", "unmatched"]
        metricsRoute = routePatterns.count
        staticRoute = routePatterns.count + 1
        unmatchedRoute = routePatterns.count + 2
        requests = CounterBlock(count: routes.count * Self.methods.count * Self.statusLabels.count)
        durations = LatencyHistograms(count: routes.count)
        storeErrors = CounterBlock(count: StoreOperation.allCases.count)
        storeLatency = LatencyHistograms(count: StoreOperation.allCases.count)
    }

    /// Connects the engine whose connections and in-flight requests are reported.
    public func attach(engine statistics: any EngineStatistics) {
        engine.withLock { $0 = statistics }
    }

    var engineStatistics: (any EngineStatistics)? { engine.withLock { $0 } }

    /// Counts one answered request.
    @inline(__always)
    package func record(route: Int, method: HTTPMethod, status: Int, nanos: UInt64) {
        let methodIndex: Int
        switch method {
        case .get: methodIndex = 0
        case .head: methodIndex = 1
        case .post: methodIndex = 2
        default: methodIndex = 3
        }
        let index = (route * Self.methods.count + methodIndex) * Self.statusLabels.count + Self.statusIndex(status)
        requests.increment(index)
        durations.record(route, nanos: nanos)
    }

    /// The count for one label combination (tests and the exposition).
    func requestCount(route: Int, method: Int, status: Int) -> UInt64 {
        requests.value((route * Self.methods.count + method) * Self.statusLabels.count + status)
    }

    @inline(__always)
    static func statusIndex(_ code: Int) -> Int {
        switch code {
        case 200: 0
        case 204: 1
        case 301: 2
        case 302: 3
        case 303: 4
        case 304: 5
        case 400: 6
        case 403: 7
        case 404: 8
        case 405: 9
        case 409: 10
        case 413: 11
        case 414: 12
        case 415: 13
        case 422: 14
        case 431: 15
        case 500: 16
        case 501: 17
        case 503: 18
        default: statuses.count + min(4, max(0, code / 100 - 1))
        }
    }

    /// Nanoseconds on the monotonic clock (no allocation, no system call on Linux's vDSO).
    @inline(__always)
    package static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The session store calls that are timed.
    enum StoreOperation: Int, CaseIterable {
        case load, insert, update, delete, sweep

        var label: String {
            switch self {
            case .load: "load"
            case .insert: "insert"
            case .update: "update"
            case .delete: "delete"
            case .sweep: "sweep"
            }
        }
    }
}
