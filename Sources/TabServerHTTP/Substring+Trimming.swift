// SPDX-License-Identifier: Apache-2.0
extension Substring {
    /// The substring without leading and trailing spaces and tabs, the only white space
    /// HTTP allows around list items and parameters (RFC 9110 §5.6.3).
    public func trimmingASCIISpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
