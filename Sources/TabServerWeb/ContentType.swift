// SPDX-License-Identifier: Apache-2.0
/// Content types by file extension, for the kinds of files a web app ships.
public enum ContentType {
    /// The type for a path; unknown extensions are `application/octet-stream`.
    public static func forPath(_ path: String) -> String {
        let ext = path.split(separator: "/").last.flatMap { name in
            name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        }
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "xml": return "application/xml"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "map": return "application/json"
        default: return "application/octet-stream"
        }
    }

    /// Whether gzip is worth it (text formats; images and fonts are compressed already).
    public static func isCompressible(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/manifest+json")
            || type.hasPrefix("image/svg+xml") || type.hasPrefix("application/xml")
    }
}
