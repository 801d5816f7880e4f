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

    /// Items read with characters only, as a reference: `list` scans bytes, and must read
    /// every header the same way.
    private static func reference(_ field: String, limit: Int) -> [(String, Double)] {
        var items: [(String, Double)] = []
        var read = 0
        for item in field.split(separator: ",", omittingEmptySubsequences: false) where read < limit {
            read += 1
            let parts = item.split(separator: ";", omittingEmptySubsequences: false)
            let value = parts[0].trimmingASCIISpaces()
            guard !value.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst().prefix(8).map({ $0.trimmingASCIISpaces() })
            where parameter.hasPrefix("q=") || parameter.hasPrefix("Q=") {
                let number = parameter.dropFirst(2)
                weight = number.utf8.count <= 5 ? Double(number).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0 : 0
            }
            items.append((String(value), weight))
        }
        return items
    }

    @Test(
        "items and weights read from bytes are those read as characters; the most preferred match is preferred's first")
    func bytesAsCharacters() {
        let weights = [
            "", "0", "1", "0.5", "0.25", "0.125", "0.1234", "1.0", "1.000", "1.5", "0.", ".5", "1e-1", "abc", "2",
            " 0.7", "0.7 ", "-0", "+0.5", "0x1", "0.9\u{301}", "nan", "\u{661}",
        ]
        let values = ["de", "DE-at", "*", "ja", " fr ", "", "d\u{e9}", "e\u{301}n", "x\u{0}y", "\t"]
        var headers: [String] = []
        for (index, weight) in weights.enumerated() {
            let value = values[index % values.count]
            headers.append("\(value);q=\(weight)")
            headers.append("\(values[(index + 3) % values.count]) ; a=b ;Q=\(weight), \(value);q=\(weight);q=0.3,,")
            headers.append("\(value);q=\u{301}\(weight), ja;q=0.5, de;q=\(weight)")
        }
        headers.append(String(repeating: "de;q=0.5;", count: 10) + "q=0.1")
        let codes = ["de", "ja"]
        for header in headers {
            let read = QualityValue.list([header], limit: 16)
            let expected = Self.reference(header, limit: 16)
            #expect(read.map { String($0.value) } == expected.map(\.0), "\(header)")
            #expect(read.map(\.weight) == expected.map(\.1), "\(header)")
            let match: (Substring) -> String? = { codes.contains(String($0)) ? String($0) : nil }
            #expect(
                QualityValue.mostPreferred(in: header, limit: 16, where: match)
                    == QualityValue.preferred([header], limit: 16).lazy.compactMap { match($0.value) }.first,
                "\(header)")
        }
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
