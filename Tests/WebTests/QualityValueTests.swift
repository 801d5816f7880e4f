// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import Testing

@Suite("Quality values and plain-text responses")
struct QualityValueTests {
    @Test("items in order with weights; repeated fields are one list; bad q counts as 0")
    func list() {
        let items = QualityValue.list(["de-AT, de;q=0.9 ,, en; Q=0.5", "fr;q=abc, ja;q=2, *;q=0"])
        #expect(items.map(\.value) == ["de-AT", "de", "en", "fr", "ja", "*"])
        #expect(items.map(\.weight) == [1, 0.9, 0.5, 0, 0, 0])
        #expect(items.map(\.position) == [0, 1, 2, 3, 4, 5])
    }

    @Test("preferred: acceptable items, highest weight first, ties in list order")
    func preferred() {
        let items = QualityValue.preferred(["en;q=0.5, de, fr;q=0, ja, ar;q=0.5"])
        #expect(items.map(\.value) == ["de", "ja", "en", "ar"])
    }

    @Test("text responses are plain UTF-8 and never cached")
    func text() {
        let response = HTTPResponse.text("ok\n", status: .serviceUnavailable)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.body == .bytes(Array("ok\n".utf8)))
    }
}
