// SPDX-License-Identifier: Apache-2.0
import TabServerWeb
import Testing

@Suite("Cookie")
struct CookieTests {
    /// The attributes of a `Set-Cookie` value after the name=value pair.
    static func attributes(_ headerValue: String) -> [String] {
        headerValue.split(separator: ";").dropFirst().map { String($0.drop { $0 == " " }) }
    }

    @Test("defaults: Path=/, HttpOnly, SameSite=Lax, no Secure, no Max-Age")
    func defaults() {
        let value = Cookie(name: "tabserver_session", value: "abc").headerValue
        #expect(value.hasPrefix("tabserver_session=abc;"))
        let attributes = Self.attributes(value)
        #expect(attributes.contains("Path=/"))
        #expect(attributes.contains("HttpOnly"))
        #expect(attributes.contains("SameSite=Lax"))
        #expect(!attributes.contains("Secure"))
        #expect(!attributes.contains { $0.hasPrefix("Max-Age") })
        #expect(!value.contains("Secure"))
    }

    @Test("every attribute when asked")
    func allAttributes() {
        let cookie = Cookie(
            name: "s", value: "v", path: "/app", maxAge: 3600, httpOnly: true, secure: true, sameSite: .strict)
        let attributes = Self.attributes(cookie.headerValue)
        #expect(cookie.headerValue.hasPrefix("s=v;"))
        #expect(Set(attributes) == ["Path=/app", "Max-Age=3600", "HttpOnly", "Secure", "SameSite=Strict"])
    }

    @Test("HttpOnly can be turned off; SameSite=None is spelled as browsers expect")
    func noHttpOnly() {
        let attributes = Self.attributes(
            Cookie(name: "s", value: "v", httpOnly: false, secure: true, sameSite: .none).headerValue)
        #expect(!attributes.contains("HttpOnly"))
        #expect(attributes.contains("Secure"))
        #expect(attributes.contains("SameSite=None"))
    }

    @Test("Max-Age=0 deletes: it is written, not dropped")
    func maxAgeZero() {
        #expect(Self.attributes(Cookie(name: "s", value: "", maxAge: 0).headerValue).contains("Max-Age=0"))
    }

    @Test(
        "safe tokens: letters, digits, '-', '_', '.'",
        arguments: ["a", "tabserver_session", "AbC-09_x.y", "-", String(repeating: "x", count: 256)])
    func safeTokens(text: String) {
        #expect(Cookie.isSafeToken(text))
        #expect(Cookie.isSafeToken(Substring(text)))
    }

    @Test(
        "unsafe tokens are refused",
        arguments: [
            "", "a;b", "a,b", "a b", "a=b", "a\"b", "a\\b", "a\tb", "a\nb", "a\rb", "a\0b", "é", "caf\u{E9}", "🙂",
            "a/b", "a:b", "a(b)", "a@b", "a+b", String(repeating: "x", count: 257),
        ])
    func unsafeTokens(text: String) {
        #expect(!Cookie.isSafeToken(text))
    }

    @Test("a session id from base64url is always a safe token")
    func base64URLAlphabetIsSafe() {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        #expect(Cookie.isSafeToken(alphabet))
    }
}
