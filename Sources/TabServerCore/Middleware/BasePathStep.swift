// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// The library's step for the path the app is mounted at behind a proxy: the steps
/// after it and the routes see the path below it (`/app/tabs/music` → `/tabs/music`);
/// a request outside it is a plain 404. Health checks answer at the root too: a proxy
/// or orchestrator probes the instance itself, not the app's public prefix.
struct BasePathStep: Middleware, CustomStringConvertible {
    let basePath: String
    let trust: ProxyTrust
    let metrics: AppMetrics?

    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        let origin = trust.origin(of: request)
        guard let path = Self.strip(basePath, from: request.path, origin: origin) ?? Self.rootOnlyPath(request.path)
        else {
            let finishing = TabServerResponder.Finishing(request, origin: origin, metrics: metrics)
            return .now(finishing.finish(.text("404 Not Found\n", status: .notFound)))
        }
        var request = request
        request.path = path
        return next(request)
    }

    /// The path below `base`, or nil when the request is outside it. A trusted proxy
    /// that removed the prefix itself says so with `X-Forwarded-Prefix`.
    static func strip(_ base: String, from path: String, origin: RequestOrigin) -> String? {
        if path == base { return "/" }
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count)) }
        if let prefix = origin.prefix, prefix.hasSuffix("/") ? String(prefix.dropLast()) == base : prefix == base {
            return path
        }
        return nil
    }

    /// Paths answered at the root even when the app lives under a base path.
    static func rootOnlyPath(_ path: String) -> String? {
        path == "/healthz" || path == "/readyz" ? path : nil
    }

    var description: String { "base path" }
}
