// SPDX-License-Identifier: Apache-2.0
extension String {
    /// Whether the string's bytes start with `prefix`'s (`"/tabs/"`), compared in place.
    /// `hasPrefix` compares Characters (Unicode grapheme by grapheme), and this runs on
    /// every request that may be a page seen before.
    package func hasASCIIPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        let wanted = UnsafeBufferPointer(start: prefix.utf8Start, count: count)
        return utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= count && (0..<count).allSatisfy { bytes[$0] == wanted[$0] }
        } ?? utf8.starts(with: wanted)
    }
}
