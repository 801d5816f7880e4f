// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("URLEncoding")
struct URLEncodingTests {
    @Test("unreserved characters are left alone")
    func unreserved() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(URLEncoding.encodeComponent(unreserved) == unreserved)
    }

    @Test(
        "reserved, space and UTF-8 are percent-encoded with upper-case hex",
        arguments: [
            (" ", "%20"), ("+", "%2B"), ("/", "%2F"), ("?", "%3F"), ("&", "%26"), ("=", "%3D"), ("%", "%25"),
            ("#", "%23"), ("\"", "%22"), ("é", "%C3%A9"), ("🙂", "%F0%9F%99%82"), ("\0", "%00"), ("\u{7F}", "%7F"),
            ("a b/c", "a%20b%2Fc"),
        ])
    func encoded(plain: String, encoded: String) {
        #expect(URLEncoding.encodeComponent(plain) == encoded)
        #expect(URLEncoding.decode(encoded) == plain)
    }

    @Test(
        "encode then decode gives the text back",
        arguments: [
            "", "plain", "a+b c", "100%", "%zz", "x=1&y=2", "tabs/music/albums/12", "Größe", "日本語", "👩‍👩‍👧", "\n\t",
        ])
    func roundTrip(text: String) {
        let encoded = URLEncoding.encodeComponent(text)
        #expect(encoded.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: " ") })
        #expect(URLEncoding.decode(encoded) == text)
        #expect(URLEncoding.decode(encoded, plusIsSpace: false) == text)
    }

    @Test("'+' is a space in forms, and kept when asked")
    func plus() {
        #expect(URLEncoding.decode("a+b+c") == "a b c")
        #expect(URLEncoding.decode("a+b", plusIsSpace: false) == "a+b")
        #expect(URLEncoding.decode("a%2Bb") == "a+b")
        #expect(URLEncoding.decode("a%20b", plusIsSpace: false) == "a b")
    }

    @Test("lower-case hex decodes too")
    func lowercaseHex() {
        #expect(URLEncoding.decode("caf%c3%a9") == "café")
        #expect(URLEncoding.decode("%2f%2F") == "//")
    }

    @Test(
        "malformed escapes stay as written",
        arguments: ["%zz", "%", "%4", "100%", "%g1", "%1g", "a%", "a%2", "%-1", "% 1"])
    func malformed(text: String) {
        #expect(URLEncoding.decode(text) == text)
    }

    @Test("a stray '%' does not swallow the escape after it")
    func strayPercent() {
        #expect(URLEncoding.decode("%%41") == "%A")
        #expect(URLEncoding.decode("%zz%41") == "%zzA")
    }

    @Test("an escape right at the end is decoded")
    func escapeAtEnd() {
        #expect(URLEncoding.decode("ab%41") == "abA")
        #expect(URLEncoding.decode("%41") == "A")
    }

    @Test("UTF-8 split over escapes decodes; invalid UTF-8 becomes U+FFFD, never a crash")
    func utf8() {
        #expect(URLEncoding.decode("%E6%97%A5%E6%9C%AC") == "日本")
        #expect(URLEncoding.decode("%FF") == "\u{FFFD}")
        #expect(URLEncoding.decode("a%C3") == "a\u{FFFD}")
    }

    @Test("decodeForm splits pairs in order")
    func decodeForm() {
        let pairs = URLEncoding.decodeForm("a=1&b=two+words&c&d=&e=x%3Dy&a=2&&na%20me=%C3%A9")
        #expect(pairs.map(\.name) == ["a", "b", "c", "d", "e", "a", "na me"])
        #expect(pairs.map(\.value) == ["1", "two words", "", "", "x=y", "2", "é"])
        #expect(URLEncoding.decodeForm("").isEmpty)
        #expect(URLEncoding.decodeForm("k=v=w").first?.value == "v=w")
    }

    @Test("encodeForm and decodeForm round-trip awkward values")
    func formRoundTrip() {
        let pairs: [(String, String)] = [
            ("tab", "music"), ("a&b", "c=d"), ("space", "a b+c"), ("pct", "100%"), ("uni", "日本語 🙂"), ("empty", ""),
        ]
        let encoded = URLEncoding.encodeForm(pairs)
        #expect(encoded.split(separator: "&").count == pairs.count)
        let decoded = URLEncoding.decodeForm(encoded)
        #expect(decoded.map(\.name) == pairs.map(\.0))
        #expect(decoded.map(\.value) == pairs.map(\.1))
    }
}
