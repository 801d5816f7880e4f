// SPDX-License-Identifier: Apache-2.0
extension String {
    /// The text `bytes` spell when they are valid UTF-8, else nil: what
    /// `String(validating:as: UTF8.self)` answers, without its unspecialized generic path,
    /// whose overhead outweighs checking a short form field (twice in every form post).
    ///
    /// ASCII is taken at once. Anything else is decoded with repair and kept only if the
    /// repair changed nothing: a repair puts U+FFFD where bytes were invalid, and invalid
    /// bytes never spell U+FFFD themselves.
    package init?(utf8Validating bytes: UnsafeBufferPointer<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        if !bytes.allSatisfy({ $0 < 0x80 }) {
            guard decoded.utf8.elementsEqual(bytes) else { return nil }
        }
        self = decoded
    }

    /// `init?(utf8Validating:)` of a slice's bytes.
    package init?(utf8Validating bytes: ArraySlice<UInt8>) {
        guard let text = bytes.withUnsafeBufferPointer({ String(utf8Validating: $0) }) else { return nil }
        self = text
    }

    /// `init?(utf8Validating:)` of an array's bytes.
    package init?(utf8Validating bytes: [UInt8]) {
        self.init(utf8Validating: bytes[...])
    }
}
