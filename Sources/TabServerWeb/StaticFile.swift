// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// One file of `Public/`, held in memory with everything a response needs, computed once.
public struct StaticFile: Sendable {
    /// The path below `Public/`, with `/` separators ("css/app.css").
    public let path: String
    public let contentType: String
    public let body: SharedBytes
    /// The gzip variant, when the type compresses and the result is smaller.
    public let gzipped: SharedBytes?
    /// Strong ETag of the identity bytes (quoted).
    public let etag: String
    /// Strong ETag of the gzip bytes (quoted; differs, as the representation differs).
    public let gzipETag: String?
    /// A short content hash for cache-busting URLs (`?v=…`).
    public let version: String
}
