// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import Testing

@testable import TabServerCore

/// Issue #19: a finished page filled in from a shared rendering is kept without its bytes
/// (so 2,000 visitors' pages fit the cache's 16 MiB) and filled in again for each answer;
/// once the render cache lets the rendering go, the entry is a miss, never a wrong page.
@Suite("The cache of finished pages: entries filled in again")
struct PageAnswerCacheTests {
    static func key(_ path: String) -> PageAnswerCache.Key {
        PageAnswerCache.Key(
            session: .generate(), revision: 1, writeToken: 0, formToken: .generate(), formHour: 0, generation: 1,
            path: path, acceptLanguage: "", gzip: false)
    }

    static func entry(_ page: [UInt8], template: TokenizedPage?, token: SessionID) -> PageAnswerCache.Entry {
        let body = template.map { $0.filled(with: token) } ?? SharedBytes(page)
        return PageAnswerCache.Entry(
            response: HTTPResponse(status: .ok, body: .shared(body)), etag: "\"e\"", cost: template == nil ? 600 : 64,
            refill: template.map { PageAnswerCache.Refill(template: $0, token: token) })
    }

    @Test("a refilled entry answers the visitor's page, costs only its head, and misses once its rendering is gone")
    func refilled() throws {
        let cache = PageAnswerCache(capacity: 1 << 20, stripes: 1)
        let placeholder = TokenizedPage.placeholder.text
        let token = SessionID.generate()
        var template: TokenizedPage? = TokenizedPage(
            bytes: Array("<form><input value=\"\(placeholder)\"></form><p>\(placeholder)</p>".utf8))
        let key = Self.key("/tabs/music")
        cache.store(Self.entry([], template: template, token: token), for: key)
        #expect(cache.footprint.bytes == 64)
        let answered = try #require(cache.entry(for: key))
        let text = String(decoding: answered.response.body.bytes, as: UTF8.self)
        #expect(text == "<form><input value=\"\(token.text)\"></form><p>\(token.text)</p>")
        #expect(!text.contains(placeholder))
        // A second answer is filled in again, the same bytes in memory of its own.
        let again = try #require(cache.entry(for: key))
        #expect(again.response.body.bytes == answered.response.body.bytes)
        if case .shared(let one) = answered.response.body, case .shared(let two) = again.response.body {
            #expect(one !== two)
        } else {
            Issue.record("a filled page is shared bytes")
        }
        // The render cache started over: no page to fill in, so a miss.
        template = nil
        #expect(cache.entry(for: key) == nil)
        // An entry of whole bytes (gzip, or a page rendered for this request) is kept as is.
        let whole = Self.key("/tabs/movies")
        cache.store(Self.entry(Array("whole".utf8), template: nil, token: token), for: whole)
        #expect(try #require(cache.entry(for: whole)).response.body.bytes == Array("whole".utf8))
    }
}
