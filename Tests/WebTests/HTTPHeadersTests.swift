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

    @Test("names of eight bytes and more compare eight at a time, the last step overlapping")
    func longNames() {
        #expect(HTTPHeaders.namesEqual("Content-Security-Policy", "content-security-policy"))
        #expect(HTTPHeaders.namesEqual("X-CONTENT-TYPE-OPTIONS", "x-content-type-options"))
        #expect(!HTTPHeaders.namesEqual("Content-Security-Policy", "content-security-policz"))
        #expect(!HTTPHeaders.namesEqual("Xontent-Security-Policy", "content-security-policy"))
        #expect(!HTTPHeaders.namesEqual("Content-[ecurity", "content-{ecurity"))  // 0x20 apart, not letters
        #expect(!HTTPHeaders.namesEqual("Content-@ecurity", "content-`ecurity"))
        #expect(!HTTPHeaders.namesEqual("Content-^ecurity", "content-~ecurity"))
        #expect(HTTPHeaders.namesEqual("Étiquette-Étiquette", "Étiquette-Étiquette"))
        #expect(!HTTPHeaders.namesEqual("étiquette-étiquette", "Étiquette-Étiquette"))  // ASCII case only
    }

    @Test("agrees with a byte-by-byte ASCII fold on 20,000 random pairs of every length up to 40")
    func agreesWithByteFold() {
        var generator = SystemRandomNumberGenerator()
        func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 41)
            // Printable ASCII, with the bytes 0x20 away from a letter's case over-represented.
            let pool: [UInt8] = Array(0x20...0x7E) + [0x40, 0x5B, 0x5E, 0x60, 0x7B, 0x7E, 0xC3, 0x89]
            let left = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            var right = left.map { generator.next() % 2 == 0 ? fold($0) : $0 }
            if count > 0, generator.next() % 3 == 0 {
                right[Int(generator.next() % UInt64(count))] = pool[Int(generator.next() % UInt64(pool.count))]
            }
            let expected = left.map(fold) == right.map(fold)
            let lhs = String(decoding: left, as: UTF8.self)
            let rhs = String(decoding: right, as: UTF8.self)
            guard lhs.utf8.elementsEqual(left), rhs.utf8.elementsEqual(right) else { continue }  // repaired bytes
            #expect(HTTPHeaders.namesEqual(lhs, rhs) == expected, "\(left) against \(right)")
        }
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
