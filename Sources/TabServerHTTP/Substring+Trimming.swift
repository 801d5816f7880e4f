// SPDX-License-Identifier: Apache-2.0
extension Substring {
    /// The substring without leading and trailing spaces and tabs, the only white space
    /// HTTP allows around list items and parameters (RFC 9110 §5.6.3).
    /// Works on the UTF-8 bytes, so a long run of spaces costs a byte compare each.
    public func trimmingASCIISpaces() -> Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let before = bytes.index(before: end)
            guard bytes[before] == 0x20 || bytes[before] == 0x09 else { break }
            end = before
        }
        return self[start..<end]
    }
}
