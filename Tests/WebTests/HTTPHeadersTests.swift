// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("lookup ignores ASCII case and keeps the given spelling")
    func caseInsensitive() {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html")
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers["Content-type"] == "text/html")
        #expect(headers.contains("cOnTeNt-TyPe"))
        #expect(headers.map(\.name) == ["Content-Type"])
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Type2"] == nil)
        #expect(!headers.contains("Content"))
    }

    @Test("only letters fold: punctuation six bits apart stays distinct")
    func foldOnlyLetters() {
        var headers = HTTPHeaders()
        headers.add("X-[a]", "brackets")
        headers.add("X-@", "at")
        #expect(headers["x-[A]"] == "brackets")
        #expect(headers["X-{a}"] == nil)
        #expect(headers["X-`"] == nil)
        #expect(headers["x-@"] == "at")
    }

    @Test("repeats are kept in order; subscript gives the first")
    func repeats() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("Vary", "Accept-Encoding")
        headers.add("set-cookie", "b=2")
        headers.add("SET-COOKIE", "c=3")
        #expect(headers["Set-Cookie"] == "a=1")
        #expect(headers.values("set-cookie") == ["a=1", "b=2", "c=3"])
        #expect(headers.count == 4)
        #expect(headers.map(\.value) == ["a=1", "Accept-Encoding", "b=2", "c=3"])
        #expect(headers.values("missing") == [])
    }

    @Test("replace leaves exactly one field of that name")
    func replace() {
        var headers = HTTPHeaders([("Cache-Control", "no-store"), ("ETag", "\"x\""), ("cache-control", "private")])
        headers.replace("CACHE-CONTROL", "public, max-age=300")
        #expect(headers.values("cache-control") == ["public, max-age=300"])
        #expect(headers["ETag"] == "\"x\"")
        #expect(headers.count == 2)
        headers.replace("New", "1")
        #expect(headers["new"] == "1")
        #expect(headers.count == 3)
    }

    @Test("remove drops every field of that name and nothing else")
    func remove() {
        var headers = HTTPHeaders([("A", "1"), ("b", "2"), ("a", "3"), ("C", "4")])
        headers.remove("a")
        #expect(headers.map(\.name) == ["b", "C"])
        headers.remove("missing")
        #expect(headers.count == 2)
    }

    @Test("init from pairs keeps order and spelling; empty headers are empty")
    func initFromPairs() {
        let headers = HTTPHeaders([("X-One", "1"), ("x-two", "2")])
        #expect(headers.map(\.name) == ["X-One", "x-two"])
        #expect(HTTPHeaders().count == 0)
        #expect(HTTPHeaders()["anything"] == nil)
    }

    @Test("equality is by content and order")
    func equality() {
        #expect(HTTPHeaders([("A", "1"), ("B", "2")]) == HTTPHeaders([("A", "1"), ("B", "2")]))
        #expect(HTTPHeaders([("A", "1"), ("B", "2")]) != HTTPHeaders([("B", "2"), ("A", "1")]))
    }
}
