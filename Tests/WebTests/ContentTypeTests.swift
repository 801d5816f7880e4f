// SPDX-License-Identifier: Apache-2.0
import TabServerWeb
import Testing

@Suite("ContentType")
struct ContentTypeTests {
    @Test(
        "common web file types",
        arguments: [
            ("index.html", "text/html; charset=utf-8"), ("css/app.css", "text/css; charset=utf-8"),
            ("js/app.js", "text/javascript; charset=utf-8"), ("js/module.mjs", "text/javascript; charset=utf-8"),
            ("manifest.webmanifest", "application/manifest+json"), ("data.json", "application/json"),
            ("icons/home.svg", "image/svg+xml"), ("img/a.png", "image/png"), ("img/a.jpg", "image/jpeg"),
            ("img/a.jpeg", "image/jpeg"), ("favicon.ico", "image/x-icon"), ("robots.txt", "text/plain; charset=utf-8"),
            ("fonts/a.woff2", "font/woff2"),
        ])
    func known(path: String, type: String) {
        #expect(ContentType.forPath(path) == type)
    }

    @Test("extensions compare without case")
    func extensionCase() {
        #expect(ContentType.forPath("APP.CSS") == ContentType.forPath("app.css"))
        #expect(ContentType.forPath("Icon.SVG") == "image/svg+xml")
    }

    @Test("only the last extension of the file name counts")
    func lastExtension() {
        #expect(ContentType.forPath("app.min.js") == ContentType.forPath("app.js"))
        #expect(ContentType.forPath("archive.css.gz") == "application/octet-stream")
        #expect(ContentType.forPath("styles.css/readme") == "application/octet-stream")
    }

    @Test(
        "no or unknown extension is octet-stream",
        arguments: ["Makefile", "css/LICENSE", "file.unknownext", "file.", ""])
    func unknown(path: String) {
        #expect(ContentType.forPath(path) == "application/octet-stream")
    }

    @Test("text formats compress; images and fonts do not")
    func compressible() {
        for path in ["a.html", "a.css", "a.js", "a.json", "a.svg", "a.txt", "a.webmanifest", "a.xml"] {
            #expect(ContentType.isCompressible(ContentType.forPath(path)), "\(path)")
        }
        for path in ["a.png", "a.jpg", "a.gif", "a.webp", "a.woff2", "a.woff", "a.bin"] {
            #expect(!ContentType.isCompressible(ContentType.forPath(path)), "\(path)")
        }
    }
}
