// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// `GET /metrics`, answered at the root whatever the base path, to local scrapers only.
enum MetricsEndpoint {
    /// `GET /metrics` (at the root, whatever the base path): the Prometheus exposition,
    /// for scrapers on loopback or in `--trusted-proxies` that connect directly. A request
    /// relayed by a proxy (it carries `Forwarded` or `X-Forwarded-For`) comes from some
    /// client behind it, so it is refused like any other stranger.
    static func response(
        _ request: HTTPRequest, metrics: AppMetrics, sources: MetricsSources, trust: ProxyTrust
    ) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            var response = HTTPResponse.text("Only GET is allowed here.\n", status: .methodNotAllowed)
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        guard isScraper(request, trust: trust) else {
            return HTTPResponse.text("Metrics are only served to local scrapers.\n", status: .forbidden)
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", AppMetrics.contentType)
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(
            status: .ok, headers: headers,
            body: .bytes(Array(metrics.exposition(sources).utf8)))
    }

    /// A direct peer on loopback or in the trusted list, not a relayed request.
    static func isScraper(_ request: HTTPRequest, trust: ProxyTrust) -> Bool {
        let peer = request.remoteAddress
        let isLoopback = peer.hasPrefix("127.") || peer == "::1" || peer.hasPrefix("::ffff:127.")
        guard isLoopback || trust.trusts(peer) else { return false }
        return request.headers["forwarded"] == nil && request.headers["x-forwarded-for"] == nil
    }
}
