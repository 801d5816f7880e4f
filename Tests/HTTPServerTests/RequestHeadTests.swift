// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine
@testable import TabServerHTTP
@testable import TabServerHTTP1

/// What a head's bytes become: the method, the field names (common ones are recognised
/// from their bytes, every name keeps the client's spelling) and the path.
@Suite("HTTP/1.1 request heads")
struct RequestHeadTests {
    @Test("methods: the common three from their bytes, any other token as sent")
    func methods() throws {
        let expected: [(String, HTTPMethod)] = [
            ("GET", .get), ("POST", .post), ("HEAD", .head), ("PUT", .put), ("DELETE", .delete),
            ("OPTIONS", .options), ("PATCH", .patch), ("GEt", .other("GEt")), ("get", .other("get")),
            ("POSTS", .other("POSTS")), ("PURGE", .other("PURGE")), ("HEAd", .other("HEAd")),
        ]
        for (token, method) in expected {
            let head = try #require(HTTP1StateMachineTests.head("\(token) /x HTTP/1.1\r\nHost: h\r\n\r\n"), "\(token)")
            #expect(head.method == method, "\(token)")
        }
    }

    @Test("field names keep the client's spelling, common or not, and are found in any case")
    func fieldNames() throws {
        let names = [
            "Host", "Cookie", "cookie", "COOKIE", "CookiE", "Accept-Language", "accept-language",
            "Accept-Languagf", "Sec-Fetch-Mode", "sec-fetch-mode", "Upgrade-Insecure-Requests", "X-Custom",
            "User-Agent", "User-Agen", "x-forwarded-proto", "X-Forwarded-Proto",
        ]
        var text = "GET / HTTP/1.1\r\n"
        for (index, name) in names.enumerated() where name != "Host" { text += "\(name): v\(index)\r\n" }
        text += "Host: h\r\n\r\n"
        let head = try #require(HTTP1StateMachineTests.head(text))
        let sent = head.headers.map(\.name)
        #expect(sent == names.filter { $0 != "Host" } + ["Host"])
        #expect(head.headers["cookie"] == "v1")
        #expect(head.headers.values("COOKIE") == ["v1", "v2", "v3", "v4"])
        #expect(head.headers["Accept-Languagf"] == "v7")
        #expect(head.headers["host"] == "h")
    }

    @Test("the path: the target itself when all path and plain, else decoded and without the query")
    func paths() throws {
        let expected: [(String, String)] = [
            ("/tabs/music", "/tabs/music"), ("/", "/"), ("/a%20b", "/a b"), ("/x?y=1", "/x"),
            ("/a+b", "/a+b"), ("http://h/p/q", "/p/q"), ("/tabs/%6Dusic?x", "/tabs/music"),
        ]
        for (target, path) in expected {
            let head = try #require(
                HTTP1StateMachineTests.head("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n"), "\(target)")
            #expect(head.path == path, "\(target)")
            #expect(head.target == target)
        }
    }
}
