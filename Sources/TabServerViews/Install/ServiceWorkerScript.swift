// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerWeb

/// The service worker as served at `<base>/sw.js`: `Public/sw.js` after one line of
/// settings (the shell's URLs with their content hashes, the base path, a version), built
/// once at start. Any change to an asset changes the shell's URLs and so the script's
/// bytes: the browser's next update check installs the new worker, which takes over at
/// once and drops the old shell.
///
/// Turned off (`--service-worker off`), the same file runs with `enabled: false` and
/// removes itself and its caches, so an earlier visit's worker does not linger.
package struct ServiceWorkerScript: Sendable {
    /// The worker's source below `Public/`.
    package static let sourcePath = "sw.js"
    /// The folders of `Public/` the worker keeps for offline use: the shell.
    package static let shellFolders = ["css/", "js/", "icons/"]
    /// The response header naming the visitor's page cache (see `OfflineCacheKey`).
    package static let cacheKeyHeader = "X-TabServer-Cache-Key"

    /// The script's bytes.
    package let body: [UInt8]
    /// Changes with the worker's source and every shell file.
    package let version: String
    /// The strong ETag of `body`.
    package var etag: String { "\"sw-\(version)\"" }

    /// `pushKey` is the server's Web Push key (base64url), nil with push off: the worker
    /// subscribes again with it when the browser changes a subscription
    /// (`pushsubscriptionchange`) and posts the new one to `<base>/push/resubscribe`.
    package init(files: StaticFiles, basePath: String, enabled: Bool, pushKey: String? = nil) {
        let source = files.file(Self.sourcePath)
        let shell = files.paths.filter { path in Self.shellFolders.contains { path.hasPrefix($0) } }
            .map { files.url(for: $0, prefix: basePath) }
        let fingerprint = ([source?.version ?? "", enabled ? "on" : "off", pushKey ?? ""] + shell)
            .joined(separator: "\n")
        version = String(Digest.hex(Digest.sha256(Array(fingerprint.utf8))).prefix(16))
        let settings = JSONDocument.object([
            ("enabled", .bool(enabled)),
            ("version", .string(version)),
            ("base", .string(basePath)),
            ("shell", .array(shell.map(JSONDocument.string))),
            ("offline", .string(basePath + "/offline")),
            ("keyHeader", .string(Self.cacheKeyHeader)),
            ("workerHeader", .string(OfflineCacheKey.workerHeader)),
            ("pushKey", .string(pushKey ?? "")),
            ("resubscribe", .string(basePath + "/push/resubscribe")),
        ])
        var body = Array("self.tabServerWorker = \(settings.text(indent: nil));\n".utf8)
        body.append(contentsOf: source?.body.array ?? [])
        self.body = body
    }
}
