// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import Testing

@Suite("UTF-8 validation of form fields and bodies")
struct UTF8ValidationTests {
    @Test(
        "valid text is kept as it is, U+FFFD included; invalid bytes are refused",
        arguments: [
            ([0x74, 0x61, 0x62], true), ([0xC3, 0xA9], true), ([0xF0, 0x9F, 0x8E, 0xB5], true),
            ([0xEF, 0xBF, 0xBD], true), ([], true), ([0xC3], false), ([0xFF], false), ([0xC0, 0x80], false),
            ([0xED, 0xA0, 0x80], false), ([0xF0, 0x9F, 0x8E], false), ([0x61, 0x80, 0x62], false),
        ] as [([UInt8], Bool)])
    func knownCases(bytes: [UInt8], valid: Bool) {
        let text = String(utf8Validating: bytes)
        #expect((text != nil) == valid)
        if let text { #expect(Array(text.utf8) == bytes) }
    }

    @Test("agrees with the standard library's validation on 20,000 random byte strings")
    func agreesWithStandardLibrary() {
        var generator = SystemRandomNumberGenerator()  // a failure prints its bytes
        // Bytes drawn mostly from the ranges UTF-8 is made of, so that valid multi-byte
        // sequences come up as often as invalid ones.
        let pool: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F,
        ]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 7)
            let bytes = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            #expect(String(utf8Validating: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}
