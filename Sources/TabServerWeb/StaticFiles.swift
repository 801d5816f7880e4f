// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerCrypto
import TabServerGzip
import TabServerHTTP

/// The files of a folder (normally `Public/`), read into memory once at start-up and
/// served without touching the disk: strong ETags, `If-None-Match` → 304,
/// `Cache-Control`, and gzip compressed once at load when the client accepts it.
///
/// Only the files loaded at start exist for it, so no request path, however encoded,
/// can reach a byte outside the folder; suspicious paths are refused before lookup anyway.
///
/// ```swift
/// let files = try StaticFiles(directory: "Public")
/// files.url(for: "css/app.css")   // "/css/app.css?v=3f2a9c1b"
/// files.response(for: request)     // nil if no such file
/// ```
public struct StaticFiles: Sendable {
    /// Why loading failed.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private let files: [String: StaticFile]
    /// Each file's answers by its request path (`/css/app.css`): the path a request
    /// carries is looked up as it is, once.
    private let served: [String: Variants]
    /// Whether every file's name has an extension (`app.css`, `manifest.webmanifest`):
    /// then a path without a dot (every page: `/tabs/music/albums/12`) is no file, known
    /// from a byte scan without building its relative path and hashing it.
    private let everyNameHasDot: Bool
    /// `Cache-Control` for plain URLs: short, revalidated through the ETag.
    public let cacheControl: String
    /// `Cache-Control` for URLs that carry the matching `?v=` content hash: they never change.
    public let immutableCacheControl = StaticFiles.immutable
    private static let immutable = "public, max-age=31536000, immutable"

    /// Loads every regular file below `directory` (dot-files excluded).
    public init(directory: String, cacheControl: String = "public, max-age=300") throws(LoadError) {
        try self.init(directories: [directory], cacheControl: cacheControl)
    }

    /// Loads the files of several folders as one: a file in a later folder replaces the
    /// one at the same path in an earlier folder (an app's own `Public/` over TabServer's).
    public init(directories: [String], cacheControl: String = "public, max-age=300") throws(LoadError) {
        self.cacheControl = cacheControl
        var loaded: [String: StaticFile] = [:]
        for directory in directories {
            try Self.load(directory, into: &loaded)
        }
        files = loaded
        served = Self.served(loaded, cacheControl: cacheControl)
        everyNameHasDot = Self.everyNameHasDot(loaded.keys)
    }

    private static func everyNameHasDot(_ paths: Dictionary<String, StaticFile>.Keys) -> Bool {
        paths.allSatisfy { path in (path.split(separator: "/").last ?? "").contains(".") }
    }

    /// Whether `path` may name a file (false only when it surely does not).
    public func mayServe(_ path: String) -> Bool {
        guard everyNameHasDot else { return true }
        // Over the contiguous bytes: the generic `contains` on the UTF-8 view goes through
        // String's index machinery for each byte.
        return path.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) }
            ?? path.utf8.contains(UInt8(ascii: "."))
    }

    private static func load(_ directory: String, into loaded: inout [String: StaticFile]) throws(LoadError) {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
            throw LoadError(description: "static files folder '\(directory)' does not exist")
        }
        let paths: [String]
        do {
            paths = try manager.subpathsOfDirectory(atPath: directory).sorted()
        } catch {
            throw LoadError(description: "cannot list '\(directory)': \(error)")
        }
        for path in paths where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let full = directory + "/" + path
            var isDir = false
            guard manager.fileExists(atPath: full, isDirectory: &isDir), !isDir else { continue }
            guard let data = manager.contents(atPath: full) else {
                throw LoadError(description: "cannot read '\(full)'")
            }
            loaded[path] = try Self.prepare(path: path, bytes: [UInt8](data))
        }
    }

    /// Files from memory (tests, or generated content).
    public init(files: [String: [UInt8]], cacheControl: String = "public, max-age=300") throws(LoadError) {
        self.cacheControl = cacheControl
        var loaded: [String: StaticFile] = [:]
        for (path, bytes) in files { loaded[path] = try Self.prepare(path: path, bytes: bytes) }
        self.files = loaded
        served = Self.served(loaded, cacheControl: cacheControl)
        everyNameHasDot = Self.everyNameHasDot(loaded.keys)
    }

    /// Every file path, sorted.
    public var paths: [String] { files.keys.sorted() }

    /// The file at `path` below the folder.
    public func file(_ path: String) -> StaticFile? { files[path] }

    /// The URL path of a file with its content hash, so it can be cached for a year;
    /// `prefix` is the app's base path. An unknown file gets its plain path (which will
    /// answer 404): the files an app cannot do without are checked at start-up instead.
    public func url(for path: String, prefix: String = "") -> String {
        guard let file = files[path] else { return "\(prefix)/\(path)" }
        return "\(prefix)/\(path)?v=\(file.version)"
    }

    /// The response for a GET or HEAD of `path` (the request path below the mount point),
    /// or nil when there is no such file (the caller answers 404).
    public func response(for request: HTTPRequest, path: String) -> HTTPResponse? {
        answer(for: request, path: path)?.response
    }

    /// `response(for:path:)` with the slot in which the engine keeps its prepared form of
    /// it (each variant of each file is built once and sent unchanged).
    public func answer(for request: HTTPRequest, path: String) -> ResponderAnswer? {
        guard mayServe(path), Self.isPlausible(path),
            let variants = path.utf8.first == UInt8(ascii: "/") ? served[path] : served["/" + path]
        else { return nil }
        let file = variants.file
        let useGzip = file.gzipped != nil && request.acceptsGzip
        let immutable = request.queryValue("v") == file.version
        let index = (useGzip ? 2 : 0) + (immutable ? 1 : 0)
        if let condition = request.headers["if-none-match"],
            Self.matches(condition, etag: useGzip ? file.gzipETag! : file.etag)
        {
            return variants.notModified[index]
        }
        return variants.ok[index]
    }

    /// Every response a file can get, built once: [identity, identity immutable, gzip,
    /// gzip immutable], each as 200 and as 304, marked for the engine to prepare once.
    private struct Variants: Sendable {
        let file: StaticFile
        let ok: [ResponderAnswer]
        let notModified: [ResponderAnswer]
    }

    /// The variants of every file, keyed by its request path.
    private static func served(_ files: [String: StaticFile], cacheControl: String) -> [String: Variants] {
        var served: [String: Variants] = [:]
        for (path, file) in files {
            served["/" + path] = variants(for: file, cacheControl: cacheControl, immutableCacheControl: immutable)
        }
        return served
    }

    private static func variants(for file: StaticFile, cacheControl: String, immutableCacheControl: String) -> Variants
    {
        var ok: [ResponderAnswer] = []
        var notModified: [ResponderAnswer] = []
        for useGzip in [false, true] {
            for immutable in [false, true] {
                let gzip = useGzip && file.gzipped != nil
                var headers = HTTPHeaders()
                headers.add("ETag", gzip ? file.gzipETag! : file.etag)
                headers.add("Cache-Control", immutable ? immutableCacheControl : cacheControl)
                if file.gzipped != nil { headers.add("Vary", "Accept-Encoding") }
                let unchanged = HTTPResponse(status: .notModified, headers: headers)
                notModified.append(ResponderAnswer(unchanged, prepared: ResponseCache()))
                headers.add("Content-Type", file.contentType)
                headers.add("X-Content-Type-Options", "nosniff")
                if gzip { headers.add("Content-Encoding", "gzip") }
                let full = HTTPResponse(status: .ok, headers: headers, body: .shared(gzip ? file.gzipped! : file.body))
                ok.append(ResponderAnswer(full, prepared: ResponseCache()))
            }
        }
        return Variants(file: file, ok: ok, notModified: notModified)
    }

    /// Refuses what no file name of ours contains: parent references, NUL, backslashes,
    /// percent signs left after decoding, and hidden files.
    static func isPlausible(_ path: String) -> Bool {
        var path = path
        return path.withUTF8(isPlausible)
    }

    /// `isPlausible` over the path's bytes in place, in one pass: this runs for every
    /// static request, and walking the `UTF8View` goes through String's index machinery
    /// for each byte.
    private static func isPlausible(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atSegmentStart = true
        var previousWasSlash = false
        for byte in bytes {
            switch byte {
            case 0, UInt8(ascii: "\\"), UInt8(ascii: "%"):
                return false
            case UInt8(ascii: "/"):
                if previousWasSlash { return false }
                previousWasSlash = true
                atSegmentStart = true
                continue
            case UInt8(ascii: "."):
                // Covers ".", ".." and hidden files alike: a segment may not start with a dot.
                if atSegmentStart { return false }
            default:
                break
            }
            previousWasSlash = false
            atSegmentStart = false
        }
        return true
    }

    /// `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any.
    public static func matches(_ header: String, etag: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = Substring(candidate).trimmingASCIISpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    private static func prepare(path: String, bytes: [UInt8]) throws(LoadError) -> StaticFile {
        let hash = Digest.sha256(bytes)
        let hex = Digest.hex(hash.prefix(8))
        let type = ContentType.forPath(path)
        var gzipped: [UInt8]? = nil
        if ContentType.isCompressible(type) && bytes.count >= 256 {
            do {
                let packed = try Gzip.compress(bytes)
                if packed.count < bytes.count * 9 / 10 { gzipped = packed }
            } catch {
                throw LoadError(description: "cannot gzip '\(path)': \(error)")
            }
        }
        return StaticFile(
            path: path, contentType: type, body: SharedBytes(bytes), gzipped: gzipped.map(SharedBytes.init),
            etag: "\"\(hex)\"", gzipETag: gzipped == nil ? nil : "\"\(hex)-gz\"", version: String(hex.prefix(10)))
    }
}
