// SPDX-License-Identifier: Apache-2.0
/// The pixel size of a PNG, read from its header, so the manifest states the real sizes
/// of its icons and screenshots (a browser drops an image whose size it was told wrong).
package struct ImageSize: Sendable, Hashable {
    package let width: Int
    package let height: Int

    /// The size in a manifest's `sizes` ("1170x2532").
    package var text: String { "\(width)x\(height)" }

    /// The size in the IHDR chunk, which a valid PNG has first; nil for anything else.
    package init?(png bytes: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // Signature (8), chunk length (4), "IHDR" (4), width (4), height (4).
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func number(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        width = number(at: 16)
        height = number(at: 20)
        guard width > 0, height > 0 else { return nil }
    }
}
