// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCrypto
import TabServerHTTP
import TabServerWeb

/// What an installed app fetches besides pages, both generated and answered before any
/// session is looked up: the web app manifest
/// (`/manifest.webmanifest`, in the language of `?lang=` or `Accept-Language`) and the
/// service worker (`/sw.js`, at the base path's root so its scope is the whole app).
/// Both are `no-cache` with a strong ETag: revalidated on every use, 304 when unchanged.
package struct InstalledAppFiles: Sendable {
    package let manifest: WebAppManifest
    package let worker: ServiceWorkerScript
    package let tabs: TabModelHolder
    package let localizer: Localizer
    package let basePath: String

    package init(
        manifest: WebAppManifest, worker: ServiceWorkerScript, tabs: TabModelHolder, localizer: Localizer,
        basePath: String
    ) {
        self.manifest = manifest
        self.worker = worker
        self.tabs = tabs
        self.localizer = localizer
        self.basePath = basePath
    }

    /// The answer to `request` when it asks for the manifest or the worker, else nil.
    package func answer(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .get || request.method == .head else { return nil }
        let response: HTTPResponse
        switch request.path {
        case TabPaths.manifest:
            let language = localizer.negotiate(
                acceptLanguage: request.headers["accept-language"], chosen: request.queryValue("lang"))
            let body = manifest.json(model: tabs.current.controller.model, language: language)
            let etag = "\"m-\(Digest.hex(Digest.sha256(body)).prefix(16))\""
            response = Self.answer(request, body: body, type: "application/manifest+json", etag: etag, extra: [])
        case TabPaths.worker:
            response = Self.answer(
                request, body: worker.body, type: "text/javascript; charset=utf-8", etag: worker.etag,
                extra: [("Service-Worker-Allowed", basePath + "/")])
        default:
            return nil
        }
        return response
    }

    /// 200 with the body (the engine leaves it out for HEAD), or 304 when the client has
    /// these bytes.
    private static func answer(
        _ request: HTTPRequest, body: [UInt8], type: String, etag: String, extra: [(String, String)]
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", type)
        // Revalidated every time: an installed app learns of a new worker or shortcut
        // on its next check, never a year later.
        headers.add("Cache-Control", "no-cache")
        headers.add("ETag", etag)
        headers.add("X-Content-Type-Options", "nosniff")
        for (name, value) in extra { headers.add(name, value) }
        if let condition = request.headers["if-none-match"],
            condition.split(separator: ",").contains(where: { $0.trimmingASCIISpaces() == etag })
        {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(body))
    }
}
