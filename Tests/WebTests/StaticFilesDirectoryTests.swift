// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerGzip
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("StaticFiles (from a directory)")
struct StaticFilesDirectoryTests {
    /// A fresh folder under the temporary directory, removed when the test ends.
    final class TemporaryFolder {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.path + "/tabserver-static-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ relative: String, _ bytes: [UInt8]) throws {
            let full = path + "/" + relative
            let parent = String(full[..<full.lastIndex(of: "/")!])
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: full, contents: Data(bytes)), "could not write \(full)")
        }

        func makeDirectory(_ relative: String) throws {
            try FileManager.default.createDirectory(atPath: path + "/" + relative, withIntermediateDirectories: true)
        }
    }

    static let css = Array(String(repeating: ".tab { color: var(--tint); padding: 4px 8px; }\n", count: 30).utf8)
    static let html = Array("<!doctype html><title>Offline</title>\n".utf8)
    static let svg = Array(
        ("<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<circle r=\"4\"/>", count: 40) + "</svg>")
            .utf8)
    static let manifest = Array("{\"name\":\"TabServer\",\"display\":\"standalone\"}".utf8)

    /// Public/-like tree with subfolders, dot-files, a dot-folder and an empty folder.
    static func populate(_ folder: TemporaryFolder) throws {
        try folder.write("offline.html", html)
        try folder.write("css/app.css", css)
        try folder.write("icons/tabs/home.svg", svg)
        try folder.write("manifest.webmanifest", manifest)
        try folder.write(".env", Array("SECRET=1".utf8))
        try folder.write("css/.draft.css", css)
        try folder.write(".git/config", Array("[core]".utf8))
        try folder.write(".well-hidden/icons/x.svg", svg)
        try folder.makeDirectory("empty/inner")
    }

    @Test("loads every regular file below the folder, subfolders included, dot-files excluded")
    func loadsTree() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        let files = try StaticFiles(directory: folder.path)
        #expect(files.paths == ["css/app.css", "icons/tabs/home.svg", "manifest.webmanifest", "offline.html"])
        #expect(files.file(".env") == nil)
        #expect(files.file("css/.draft.css") == nil)
        #expect(files.file(".git/config") == nil)
        #expect(files.file(".well-hidden/icons/x.svg") == nil)
        #expect(files.file("empty") == nil)
        #expect(files.file("empty/inner") == nil)
    }

    @Test("contents and content types come from the files")
    func contents() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        let files = try StaticFiles(directory: folder.path)
        let expected: [(String, [UInt8], String)] = [
            ("offline.html", Self.html, "text/html; charset=utf-8"),
            ("css/app.css", Self.css, "text/css; charset=utf-8"),
            ("icons/tabs/home.svg", Self.svg, "image/svg+xml"),
            ("manifest.webmanifest", Self.manifest, "application/manifest+json"),
        ]
        for (path, bytes, type) in expected {
            let response = try #require(
                files.response(for: HTTPRequest(method: .get, path: "/" + path), path: "/" + path))
            #expect(response.status == .ok)
            #expect(response.body.bytes == bytes, "\(path)")
            #expect(response.headers["Content-Type"] == type, "\(path)")
        }
    }

    @Test("a directory-loaded file gets the same ETag and variants as the same bytes in memory")
    func sameAsInMemory() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        let fromDisk = try #require(try StaticFiles(directory: folder.path).file("css/app.css"))
        let inMemory = try #require(try StaticFiles(files: ["css/app.css": Self.css]).file("css/app.css"))
        #expect(fromDisk.etag == inMemory.etag)
        #expect(fromDisk.version == inMemory.version)
        #expect(fromDisk.gzipETag == inMemory.gzipETag)
        #expect(try Gzip.decompress(try #require(fromDisk.gzipped).array) == Self.css)
    }

    @Test("dot-files on disk are not served, however they are asked for")
    func dotFilesNotServed() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        let files = try StaticFiles(directory: folder.path)
        for path in [
            "/.env", "/css/.draft.css", "/.git/config", "/.well-hidden/icons/x.svg", "/css/../.env", "/%2eenv",
        ] {
            #expect(files.response(for: HTTPRequest(method: .get, path: path), path: path) == nil, "\(path)")
        }
    }

    @Test("a trailing slash on the folder path makes no difference")
    func trailingSlash() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        #expect(try StaticFiles(directory: folder.path + "/").paths == StaticFiles(directory: folder.path).paths)
    }

    @Test("an empty folder loads with no files")
    func emptyFolder() throws {
        let folder = try TemporaryFolder()
        #expect(try StaticFiles(directory: folder.path).paths.isEmpty)
    }

    @Test("a missing folder throws, naming it")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path + "/no-such-public"
        let error = #expect(throws: StaticFiles.LoadError.self) { try StaticFiles(directory: missing) }
        #expect(error?.description.contains(missing) == true)
    }

    @Test("a regular file where the folder should be throws, naming it")
    func fileInsteadOfFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("not-a-folder", Array("x".utf8))
        let path = folder.path + "/not-a-folder"
        let error = #expect(throws: StaticFiles.LoadError.self) { try StaticFiles(directory: path) }
        #expect(error?.description.contains(path) == true)
    }

    @Test("files are read once at load: later changes on disk are not seen")
    func readOnce() throws {
        let folder = try TemporaryFolder()
        try Self.populate(folder)
        let files = try StaticFiles(directory: folder.path)
        try folder.write("offline.html", Array("changed".utf8))
        try folder.write("late.css", Self.css)
        let response = try #require(
            files.response(for: HTTPRequest(method: .get, path: "/offline.html"), path: "/offline.html"))
        #expect(response.body.bytes == Self.html)
        #expect(files.file("late.css") == nil)
    }
}
