// SPDX-License-Identifier: Apache-2.0
import TabServerGzip
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("StaticFiles (in memory)")
struct StaticFilesTests {
    /// Repetitive CSS, well over 256 bytes: compresses to a fraction.
    static let css = Array(String(repeating: ".tab-bar { display: flex; color: var(--tint); }\n", count: 40).utf8)
    static let smallCSS = Array("body { margin: 0 }\n".utf8)
    static let svg = Array(
        ("<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<path d=\"M0 0h24v24H0z\"/>", count: 30)
            + "</svg>")
            .utf8)
    /// Compresses well, but PNG is not a compressible type.
    static let png = [UInt8](repeating: 0, count: 2_000)
    /// Text type, but incompressible content (a scrambled byte sequence).
    static let noise: [UInt8] = {
        var state: UInt32 = 0x1234_5678
        return (0..<4_000).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    static func files() throws -> StaticFiles {
        try StaticFiles(files: [
            "css/app.css": css, "css/small.css": smallCSS, "icons/home.svg": svg, "img/blank.png": png,
            "noise.txt": noise, ".hidden": Array("secret".utf8), "css/.secret.css": css,
        ])
    }

    static func get(
        _ path: String, acceptEncoding: String? = nil, ifNoneMatch: String? = nil, version: String? = nil
    ) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let acceptEncoding { headers.add("Accept-Encoding", acceptEncoding) }
        if let ifNoneMatch { headers.add("If-None-Match", ifNoneMatch) }
        return HTTPRequest(method: .get, path: path, query: version.map { [("v", $0)] } ?? [], headers: headers)
    }

    static func response(
        _ files: StaticFiles, _ path: String, acceptEncoding: String? = nil, ifNoneMatch: String? = nil,
        version: String? = nil
    ) throws -> HTTPResponse {
        let request = get(path, acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch, version: version)
        return try #require(files.response(for: request, path: path))
    }

    /// A strong entity tag: a quoted string, no `W/`.
    static func isStrongETag(_ tag: String) -> Bool {
        tag.count >= 3 && tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.dropFirst().dropLast().contains("\"")
    }

    // MARK: loading

    @Test("files keep their bytes, path and content type")
    func loaded() throws {
        let files = try Self.files()
        let css = try #require(files.file("css/app.css"))
        #expect(css.path == "css/app.css")
        #expect(css.body.array == Self.css)
        #expect(css.contentType == "text/css; charset=utf-8")
        #expect(try #require(files.file("icons/home.svg")).contentType == "image/svg+xml")
        #expect(try #require(files.file("img/blank.png")).contentType == "image/png")
        #expect(files.file("css/missing.css") == nil)
        #expect(files.paths == files.paths.sorted())
        #expect(files.paths.contains("css/app.css"))
    }

    @Test("ETags are strong and quoted, equal for equal bytes, different for different bytes")
    func etags() throws {
        let files = try StaticFiles(files: ["a.css": Self.css, "b.css": Self.css, "c.css": Self.smallCSS])
        let a = try #require(files.file("a.css"))
        let b = try #require(files.file("b.css"))
        let c = try #require(files.file("c.css"))
        #expect(Self.isStrongETag(a.etag))
        #expect(Self.isStrongETag(c.etag))
        #expect(a.etag == b.etag)
        #expect(a.etag != c.etag)
        #expect(a.version == b.version)
        #expect(a.version != c.version)
        #expect(!a.version.isEmpty)
        #expect(URLEncoding.encodeComponent(a.version) == a.version, "usable in a query without escaping")
    }

    @Test("gzip variant: compressible, at least 256 bytes and actually smaller")
    func gzipVariant() throws {
        let files = try Self.files()
        let css = try #require(files.file("css/app.css"))
        let packed = try #require(css.gzipped)
        #expect(packed.count < Self.css.count)
        #expect(try Gzip.decompress(packed.array) == Self.css)
        let gzipETag = try #require(css.gzipETag)
        #expect(Self.isStrongETag(gzipETag))
        #expect(gzipETag != css.etag)

        #expect(try #require(files.file("icons/home.svg")).gzipped != nil)
        #expect(try #require(files.file("css/small.css")).gzipped == nil, "under 256 bytes")
        #expect(try #require(files.file("img/blank.png")).gzipped == nil, "not a compressible type")
        #expect(try #require(files.file("noise.txt")).gzipped == nil, "gzip would not be smaller")
        #expect(try #require(files.file("noise.txt")).gzipETag == nil)
    }

    @Test("the 256-byte threshold")
    func gzipThreshold() throws {
        let line = Array("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n".utf8)  // 32 bytes
        let exactly = Array(Array(repeating: line, count: 8).joined())
        let under = Array(exactly.dropLast())
        #expect(exactly.count == 256)
        let files = try StaticFiles(files: ["exact.txt": exactly, "under.txt": under])
        #expect(try #require(files.file("exact.txt")).gzipped != nil)
        #expect(try #require(files.file("under.txt")).gzipped == nil)
    }

    @Test("an empty file loads and is served with an empty body")
    func emptyFile() throws {
        let files = try StaticFiles(files: ["empty.css": []])
        let response = try Self.response(files, "/empty.css", acceptEncoding: "gzip")
        #expect(response.status == .ok)
        #expect(response.body.count == 0)
        #expect(response.headers["Content-Encoding"] == nil)
    }

    // MARK: responses

    @Test("plain GET: 200, identity body, type, ETag, short Cache-Control, Vary, nosniff")
    func plainGet() throws {
        let files = try Self.files()
        let file = try #require(files.file("css/app.css"))
        let response = try Self.response(files, "/css/app.css")
        #expect(response.status == .ok)
        #expect(response.body.bytes == Self.css)
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(response.headers["ETag"] == file.etag)
        #expect(response.headers["Cache-Control"] == files.cacheControl)
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test("the path may come with or without its leading slash")
    func leadingSlash() throws {
        let files = try Self.files()
        #expect(files.response(for: Self.get("css/app.css"), path: "css/app.css") != nil)
        #expect(files.response(for: Self.get("/css/app.css"), path: "/css/app.css") != nil)
    }

    @Test("gzip when accepted: Content-Encoding, the gzip ETag, a body that inflates to the file")
    func gzipGet() throws {
        let files = try Self.files()
        let file = try #require(files.file("css/app.css"))
        let response = try Self.response(files, "/css/app.css", acceptEncoding: "br, gzip")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["ETag"] == file.gzipETag)
        #expect(response.headers["ETag"] != file.etag)
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(response.body.count < Self.css.count)
        #expect(try Gzip.decompress(response.body.bytes) == Self.css)
    }

    @Test("gzip refused with q=0 gives identity")
    func gzipRefused() throws {
        let response = try Self.response(try Self.files(), "/css/app.css", acceptEncoding: "gzip;q=0")
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.body.bytes == Self.css)
    }

    @Test("a file without a gzip variant is identity even when gzip is accepted, with no Vary")
    func noVariant() throws {
        let files = try Self.files()
        for path in ["/img/blank.png", "/css/small.css", "/noise.txt"] {
            let file = try #require(files.file(String(path.dropFirst())))
            let response = try Self.response(files, path, acceptEncoding: "gzip")
            #expect(response.headers["Content-Encoding"] == nil, "\(path)")
            #expect(response.headers["Vary"] == nil, "\(path)")
            #expect(response.headers["ETag"] == file.etag, "\(path)")
            #expect(response.body.bytes == file.body.array, "\(path)")
        }
    }

    @Test(
        "If-None-Match that matches gives 304 with the ETag and no body",
        arguments: ["exact", "list", "weak", "star", "spaced list"])
    func notModified(form: String) throws {
        let files = try Self.files()
        let etag = try #require(files.file("css/app.css")).etag
        let header =
            switch form {
            case "exact": etag
            case "list": "\"nope\", \(etag), \"other\""
            case "weak": "W/\(etag)"
            case "star": "*"
            default: "  \"nope\" ,   W/\(etag)  "
            }
        let response = try Self.response(files, "/css/app.css", ifNoneMatch: header)
        #expect(response.status == .notModified)
        #expect(response.headers["ETag"] == etag)
        #expect(response.body.count == 0)
        #expect(response.headers["Cache-Control"] == files.cacheControl)
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Encoding"] == nil)
    }

    @Test("If-None-Match on the gzip variant uses the gzip ETag")
    func notModifiedGzip() throws {
        let files = try Self.files()
        let file = try #require(files.file("css/app.css"))
        let gzipETag = try #require(file.gzipETag)
        let hit = try Self.response(files, "/css/app.css", acceptEncoding: "gzip", ifNoneMatch: gzipETag)
        #expect(hit.status == .notModified)
        #expect(hit.headers["ETag"] == gzipETag)
        #expect(hit.body.count == 0)
        // The identity tag does not validate the gzip representation, nor the reverse.
        let identityTag = try Self.response(files, "/css/app.css", acceptEncoding: "gzip", ifNoneMatch: file.etag)
        #expect(identityTag.status == .ok)
        #expect(identityTag.headers["Content-Encoding"] == "gzip")
        let gzipTagNoGzip = try Self.response(files, "/css/app.css", ifNoneMatch: gzipETag)
        #expect(gzipTagNoGzip.status == .ok)
        #expect(gzipTagNoGzip.body.bytes == Self.css)
    }

    @Test(
        "If-None-Match that does not match gives the full 200",
        arguments: ["\"nope\"", "\"nope\", \"other\"", "W/\"nope\"", "", "garbage"])
    func modified(header: String) throws {
        let response = try Self.response(try Self.files(), "/css/app.css", ifNoneMatch: header)
        #expect(response.status == .ok)
        #expect(response.body.bytes == Self.css)
    }

    @Test("an ETag of another file does not match")
    func otherFilesETag() throws {
        let files = try Self.files()
        let svgTag = try #require(files.file("icons/home.svg")).etag
        #expect(try Self.response(files, "/css/app.css", ifNoneMatch: svgTag).status == .ok)
    }

    @Test("?v= with the file's version is cached as immutable; a wrong or missing v is not")
    func versionedCaching() throws {
        let files = try Self.files()
        let version = try #require(files.file("css/app.css")).version
        let matching = try Self.response(files, "/css/app.css", version: version)
        #expect(matching.headers["Cache-Control"] == files.immutableCacheControl)
        #expect(matching.headers["Cache-Control"]?.contains("immutable") == true)
        for wrong in ["0000000000", "", version + "0", String(version.dropLast()), version.uppercased()]
        where wrong != version {
            let response = try Self.response(files, "/css/app.css", version: wrong)
            #expect(response.headers["Cache-Control"] == files.cacheControl, "v=\(wrong)")
            #expect(response.status == .ok)
        }
        #expect(try Self.response(files, "/css/app.css").headers["Cache-Control"] == files.cacheControl)
        #expect(!files.cacheControl.contains("immutable"))
    }

    @Test("a custom Cache-Control is used for plain URLs")
    func customCacheControl() throws {
        let files = try StaticFiles(files: ["a.txt": Array("hi".utf8)], cacheControl: "no-cache")
        #expect(try Self.response(files, "/a.txt").headers["Cache-Control"] == "no-cache")
    }

    @Test("url(for:prefix:) carries the version that makes the response immutable")
    func urlForPath() throws {
        let files = try Self.files()
        let version = try #require(files.file("css/app.css")).version
        #expect(files.url(for: "css/app.css") == "/css/app.css?v=\(version)")
        #expect(files.url(for: "css/app.css", prefix: "/tabs-app") == "/tabs-app/css/app.css?v=\(version)")
        #expect(files.url(for: "css/app.css") != files.url(for: "css/small.css"))

        // Follow the URL back: path and query as the engine would decode them.
        let url = files.url(for: "icons/home.svg", prefix: "")
        let parts = url.split(separator: "?", maxSplits: 1)
        let path = String(parts[0])
        let query = parts[1].split(separator: "=", maxSplits: 1)
        #expect(query[0] == "v")
        let response = try Self.response(files, path, version: String(query[1]))
        #expect(response.headers["Cache-Control"] == files.immutableCacheControl)
    }

    @Test(
        "an unknown file is nil (the caller answers 404)",
        arguments: ["/css/missing.css", "/css", "/css/", "/", "", "/CSS/APP.CSS"])
    func unknown(path: String) throws {
        #expect(try Self.files().response(for: Self.get(path), path: path) == nil)
    }

    @Test(
        "traversal and odd paths are refused",
        arguments: [
            "../x", "/../css/app.css", "/css/../css/app.css", "css/./app.css", "./css/app.css", "%2e%2e/css/app.css",
            "/css/%2e%2e/css/app.css", "/css%2Fapp.css", "css\\app.css", "/css/app.css\0", "\0", "/.hidden", ".hidden",
            "/css/.secret.css", "//css/app.css", "/css//app.css", "/etc/passwd", "/proc/self/environ",
        ])
    func refused(path: String) throws {
        #expect(try Self.files().response(for: Self.get(path), path: path) == nil)
    }

    @Test("refusal does not depend on the file existing: a plausible path of a real file is served")
    func controlForRefusal() throws {
        // The same file reached through a clean path works, so the refusals above are
        // about the path, not about a missing file.
        #expect(try Self.files().response(for: Self.get("/css/app.css"), path: "/css/app.css") != nil)
    }
}
