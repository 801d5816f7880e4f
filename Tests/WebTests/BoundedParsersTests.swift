// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

/// Parsers of outside bytes read a bounded part of a hostile header as large as the head
/// limit allows (32 KiB), so it costs about what a short one does (`bench/amplification.py`
/// measures the CPU; these hold the bounds themselves).
@Suite("Bounded parsers of large headers")
struct BoundedParsersTests {
    static let size = 31_000

    /// `count` comma-separated items made by `item`, cut to about 31 KB.
    static func list(separator: String = ", ", _ item: (Int) -> String) -> String {
        var text = ""
        var index = 0
        while text.utf8.count < size {
            text += (index == 0 ? "" : separator) + item(index)
            index += 1
        }
        return text
    }

    @Test("a quality list reads its first 64 items; a long q is no quality value")
    func qualityValues() {
        let header = Self.list { "x\($0)-yy;q=0.5" }
        let items = QualityValue.list([header])
        #expect(items.count == QualityValue.defaultItemLimit)
        #expect(items.last?.value == "x63-yy")
        #expect(QualityValue.list([header], limit: 3).map(\.value) == ["x0-yy", "x1-yy", "x2-yy"])
        #expect(QualityValue.list(["de;q=0.5000000000001"]).first?.weight == 0)
        #expect(QualityValue.list(["de;q=0.125"]).first?.weight == 0.125)
        // Empty items count towards the limit too: a header of commas is read no further.
        #expect(QualityValue.list([String(repeating: ",", count: Self.size) + "de"]).isEmpty)
        // Parameters past the eighth are not read.
        #expect(QualityValue.list(["de" + String(repeating: ";a=b", count: 8) + ";q=0.1"]).first?.weight == 1)
        #expect(QualityValue.list(["de" + String(repeating: ";a=b", count: 6) + ";q=0.1"]).first?.weight == 0.1)
    }

    @Test("the session cookie is found after 31 KB of other cookies, spaces and quotes as before")
    func cookies() {
        let others = Self.list(separator: "; ") { "c\($0)=v\($0)" }
        var headers = HTTPHeaders()
        headers.add("Cookie", others + "; tabserver_session = \"abc\" ")
        let request = HTTPRequest(method: .get, path: "/", headers: headers)
        #expect(request.cookie("tabserver_session") == "abc")
        #expect(request.cookie("c0") == "v0")
        #expect(request.cookie("missing") == nil)
        #expect(request.cookie("c10") == "v10")
        #expect(request.cookie("c1") == "v1")
    }

    @Test("the name inside another cookie's name or value is not the cookie; a value repeating it costs one pass")
    func cookieNameElsewhere() {
        var headers = HTTPHeaders()
        let repeated = String(repeating: "tabserver_session", count: 1_500)
        headers.add(
            "Cookie",
            "xtabserver_session=1; a=tabserver_session=2; tabserver_sessionx=3;b=\(repeated); tabserver_session=4; "
                + "tabserver_session=5")
        let request = HTTPRequest(method: .get, path: "/", headers: headers)
        #expect(request.cookie("tabserver_session") == "4")
        #expect(request.cookie("a") == "tabserver_session=2")
        #expect(request.cookie("b")?.count == repeated.count)
        #expect(request.cookie("") == nil)
    }

    @Test("X-Forwarded-For: at most 16 hops are walked from the nearest; the walk still stops at the first stranger")
    func forwardedFor() throws {
        let trust = ProxyTrust.loopback
        // Thousands of loopback (trusted) hops: the 16th from the end is taken as the client.
        let chain = Self.list { "127.0.\($0 / 250).\($0 % 250 + 1)" }
        let hops = chain.split(separator: ",").map { $0.trimmingASCIISpaces() }
        var headers = HTTPHeaders()
        headers.add("X-Forwarded-For", chain)
        let origin = trust.origin(of: HTTPRequest(method: .get, path: "/", headers: headers))
        #expect(origin.client == String(hops[hops.count - ProxyTrust.hopLimit]))
        // A stranger among the nearest hops is the client, as before.
        var near = HTTPHeaders()
        near.add("X-Forwarded-For", chain + ", 203.0.113.7, 127.0.0.2")
        #expect(trust.origin(of: HTTPRequest(method: .get, path: "/", headers: near)).client == "203.0.113.7")
        // A 31 KB item is no address: it is an untrusted client, cut.
        var long = HTTPHeaders()
        long.add("X-Forwarded-For", String(repeating: "a", count: Self.size))
        #expect(trust.origin(of: HTTPRequest(method: .get, path: "/", headers: long)).client.utf8.count <= 64)
    }

    @Test(
        "X-Forwarded-For entries lose their port and brackets; one that is no address leaves the proxy as the client",
        arguments: [
            ("198.51.100.7:40001", "198.51.100.7"), ("[2001:db8::1]:443", "2001:db8::1"),
            ("[2001:db8::2]", "2001:db8::2"), ("2001:db8::3", "2001:db8::3"),
            ("unknown", "127.0.0.1"), ("shop.example:80", "127.0.0.1"), ("198.51.100.8, 127.0.0.5:9", "198.51.100.8"),
            ("203.0.113.1, garbage", "127.0.0.1"),
        ])
    func forwardedForNormalized(header: String, client: String) {
        var headers = HTTPHeaders()
        headers.add("X-Forwarded-For", header)
        var request = HTTPRequest(method: .get, path: "/", headers: headers)
        request.remoteAddress = "127.0.0.1"
        #expect(ProxyTrust.loopback.origin(of: request).client == client)
    }

    @Test("Forwarded: an obfuscated or malformed for= leaves the proxy that sent it as the client")
    func forwardedObfuscated() {
        for value in ["for=_hidden", "for=unknown", "for=\"shop.example\"", "for=203.0.113.4, for=_relay"] {
            var headers = HTTPHeaders()
            headers.add("Forwarded", value)
            var request = HTTPRequest(method: .get, path: "/", headers: headers)
            request.remoteAddress = "127.0.0.1"
            #expect(ProxyTrust.loopback.origin(of: request).client == "127.0.0.1", "\(value)")
        }
    }

    @Test("Forwarded: only the 16 nearest elements are read; scheme and host come from the nearest")
    func forwarded() {
        let elements = Self.list { "for=127.0.\($0 / 250).\($0 % 250 + 1);proto=http" }
        var headers = HTTPHeaders()
        headers.add("Forwarded", elements + ", for=203.0.113.9;proto=https;host=shop.test")
        let origin = ProxyTrust.loopback.origin(of: HTTPRequest(method: .get, path: "/", headers: headers))
        #expect(origin.client == "203.0.113.9")
        #expect(origin.isHTTPS)
        #expect(origin.host == "shop.test")
        var trusted = HTTPHeaders()
        trusted.add("Forwarded", elements + ", For=\"127.9.9.9:80\"; Proto=HTTPS")
        let walked = ProxyTrust.loopback.origin(of: HTTPRequest(method: .get, path: "/", headers: trusted))
        let addresses = elements.split(separator: ",").map { $0.split(separator: ";")[0].dropFirst(5) }
        #expect(walked.client == String(addresses[addresses.count - (ProxyTrust.hopLimit - 1)]))
        #expect(walked.isHTTPS, "names and values in any case, quotes and port removed")
    }
}
