// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerJSON
import Testing

@Suite("JSONString: the one JSON string escaper")
struct JSONStringTests {
    @Test("quotes, backslashes, every control character and DEL are escaped; UTF-8 passes as it is")
    func escapes() throws {
        #expect(JSONString.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(JSONString.escaped("\n\r\t\u{8}\u{C}") == #"\n\r\t\b\f"#)
        #expect(JSONString.escaped("\u{0}\u{1F}\u{7F}") == #"\u0000\u001f\u007f"#)
        #expect(JSONString.escaped("é → 日本") == "é → 日本")
        #expect(JSONString.escaped("/") == "/")
        // Every byte below 0x80 round-trips through a JSON parser.
        let all = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        let decoded = try JSONDecoder().decode(String.self, from: Data(JSONString.quoted(all).utf8))
        #expect(decoded == all)
        var bytes: [UInt8] = []
        JSONString.appendEscaped("x\"".utf8, to: &bytes)
        #expect(bytes == Array(#"x\""#.utf8))
    }
}
