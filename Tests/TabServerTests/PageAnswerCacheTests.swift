// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import Testing

@testable import TabServerCore

/// Past its budget the cache of finished pages first keeps the pages it can
/// fill in again (a shared rendering and the visitor's token) thin, without their bytes,
/// so 2,000 visitors' pages fit its 16 MiB; a thin page is filled in again for each
/// answer, and once the render cache lets the rendering go it is a miss, never a wrong page.
@Suite("The cache of finished pages: whole, thin, dropped")
struct PageAnswerCacheTests {
    static let filler = String(repeating: "x", count: 1000)

    static func key(_ path: String) -> PageAnswerCache.Key {
        PageAnswerCache.Key(
            session: .generate(), revision: 1, writeToken: 0, formToken: .generate(), formHour: 0, path: path,
            variant: PageVariant(language: 0, platform: .ios, generation: 1), gzip: false)
    }

    static func entry(_ template: TokenizedPage, token: SessionID) -> PageAnswerCache.Entry {
        let body = template.filled(with: token)
        return PageAnswerCache.Entry(
            response: HTTPResponse(status: .ok, body: .shared(body)), etag: "\"e\"",
            cost: body.count + PageAnswerCache.Entry.overhead,
            refill: PageAnswerCache.Refill(template: template, token: token))
    }

    static func shared(_ entry: PageAnswerCache.Entry?) -> SharedBytes? {
        if case .shared(let bytes) = entry?.response.body { bytes } else { nil }
    }

    @Test(
        "whole while there is room; thinned oldest first, then filled in again per answer; a miss once its rendering is gone"
    )
    func thinThenDropped() throws {
        // Room for two whole pages (2,610 bytes each with their head) and a thin one.
        let cache = PageAnswerCache(capacity: 7000, stripes: 1)
        let placeholder = TokenizedPage.placeholder.text
        var template: TokenizedPage? = TokenizedPage(
            bytes: Array("<input value=\"\(placeholder)\"><p>\(Self.filler)</p><i>\(placeholder)</i>".utf8))
        let token = SessionID.generate()
        let expected = Array("<input value=\"\(token.text)\"><p>\(Self.filler)</p><i>\(token.text)</i>".utf8)
        let first = Self.key("/tabs/music")
        cache.store(Self.entry(try #require(template), token: token), for: first)
        // Whole: each answer sends the kept bytes themselves.
        let one = try #require(Self.shared(cache.entry(for: first)))
        #expect(one.array == expected)
        #expect(Self.shared(cache.entry(for: first)) === one)
        // Two more pages: the oldest is thinned, not dropped.
        for path in ["/tabs/movies", "/tabs/tv"] {
            cache.store(Self.entry(try #require(template), token: .generate()), for: Self.key(path))
        }
        #expect(cache.footprint.entries == 3)
        #expect(
            cache.footprint.bytes == 2 * (expected.count + PageAnswerCache.Entry.overhead)
                + PageAnswerCache.Entry.thinCost)
        let filled = try #require(Self.shared(cache.entry(for: first)))
        #expect(filled.array == expected)
        #expect(filled !== one)
        #expect(!String(decoding: filled.array, as: UTF8.self).contains(placeholder))
        // The render cache started over: nothing to fill a thin page in from, so a miss.
        template = nil
        #expect(cache.entry(for: first) == nil)
    }

    static func whole(_ text: String) -> PageAnswerCache.Entry {
        PageAnswerCache.Entry(
            response: HTTPResponse(status: .ok, body: .shared(SharedBytes(Array(text.utf8)))), etag: "\"g\"",
            cost: 3000)
    }

    @Test("pages that cannot be thinned (gzip'd, the shared first page) stay until thinning is not enough")
    func wholeKeptWhileThinningHelps() throws {
        let cache = PageAnswerCache(capacity: 7000, stripes: 1)
        let placeholder = TokenizedPage.placeholder.text
        let template = TokenizedPage(bytes: Array("<p>\(Self.filler)</p><i>\(placeholder)</i>".utf8))
        let first = Self.key("/tabs/featured")
        cache.store(Self.whole("first page"), for: first)
        cache.store(Self.entry(template, token: .generate()), for: Self.key("/tabs/music"))
        cache.store(Self.entry(template, token: .generate()), for: Self.key("/tabs/movies"))
        // Both pages that can be filled in again were thinned; the older whole one stayed.
        #expect(cache.footprint.entries == 3)
        #expect(cache.footprint.bytes == 3000 + 2 * PageAnswerCache.Entry.thinCost)
        #expect(try #require(Self.shared(cache.entry(for: first))).array == Array("first page".utf8))
        withExtendedLifetime(template) {}
    }

    @Test("pages that cannot be thinned are dropped oldest first; a page stored again gets a place of its own")
    func wholeDropped() throws {
        let cache = PageAnswerCache(capacity: 7000, stripes: 1)
        let keys = (0..<4).map { Self.key("/tabs/\($0)") }
        for key in keys.prefix(3) { cache.store(Self.whole(Self.filler), for: key) }
        #expect(cache.entry(for: keys[0]) == nil)
        #expect(try #require(Self.shared(cache.entry(for: keys[2]))).array == Array(Self.filler.utf8))
        #expect(cache.footprint.entries == 2)
        #expect(cache.footprint.bytes == 6000)
        // keys[1] stored again is now the newest: the next page drops keys[2], not it.
        cache.store(Self.whole("again"), for: keys[1])
        cache.store(Self.whole(Self.filler), for: keys[3])
        #expect(cache.entry(for: keys[2]) == nil)
        #expect(try #require(Self.shared(cache.entry(for: keys[1]))).array == Array("again".utf8))
        #expect(cache.footprint.bytes == 6000)
    }

    @Test("a page's ETag is \"p\", the tag in lower-case hex without leading zeros, \"-gz\" when gzip'd")
    func etagText() {
        #expect(TabServerResponder.etag(0, gzip: false) == "\"p0\"")
        #expect(TabServerResponder.etag(0xabc, gzip: true) == "\"pabc-gz\"")
        #expect(TabServerResponder.etag(.max, gzip: false) == "\"pffffffffffffffff\"")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let tag = UInt64.random(in: 0...(.max >> UInt64.random(in: 0..<64)), using: &generator)
            let gzip = Bool.random(using: &generator)
            #expect(
                TabServerResponder.etag(tag, gzip: gzip) == "\"p" + String(tag, radix: 16) + (gzip ? "-gz" : "") + "\"")
        }
    }

    @Test("the table hash: equal keys agree, what tells pages apart changes it, what a key replaces does not")
    func tableHash() {
        let session = SessionID.generate()
        func key(
            _ session: SessionID?, revision: Int = 1, formHour: UInt32 = 0, generation: Int = 1,
            path: String = "/tabs/a", language: Int = 0, platform: TabBarAppearance.PlatformStyle = .ios,
            app: String = "", gzip: Bool = false
        ) -> PageAnswerCache.Key {
            PageAnswerCache.Key(
                session: session, revision: revision, writeToken: 0, formToken: nil, formHour: formHour, path: path,
                variant: PageVariant(language: language, platform: platform, app: app, generation: generation),
                gzip: gzip)
        }
        let base = key(session)
        #expect(key(session).tableHash == base.tableHash)
        let others = [
            key(.generate()), key(nil), key(session, revision: 2), key(session, path: "/tabs/b"),
            key(session, language: 1), key(session, platform: .material), key(session, app: "dark"),
            key(session, gzip: true),
        ]
        for other in others { #expect(other.tableHash != base.tableHash, "\(other)") }
        // Another hour's form token or another model's pages replace the key's entry.
        #expect(key(session, formHour: 7, generation: 9).tableHash == base.tableHash)
        // Paths of one session spread over the table's buckets.
        var buckets = Set<Int>()
        for index in 0..<4096 {
            buckets.insert(Int(UInt(bitPattern: key(session, path: "/p\(index)").tableHash) % 4096))
        }
        #expect(buckets.count > 2400)
    }
}
