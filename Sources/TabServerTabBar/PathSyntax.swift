// SPDX-License-Identifier: Apache-2.0
/// Syntax checks for the slash-separated names this module accepts: remembered tab
/// locations, icon file names and template names.
///
/// All of them end up in URLs or file look-ups, so the rules are deliberately narrow:
/// a fixed byte alphabet, no empty segments (no leading, trailing or doubled `/`),
/// and no `.` or `..` segments that could climb out of a folder.
enum PathSyntax {
    /// Bytes allowed in a location segment: RFC 3986 "unreserved" characters, which
    /// never need percent-encoding in a URL path.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isFileNameByte(byte) || byte == UInt8(ascii: "~")
    }

    /// Bytes allowed in icon and template names: letters, digits, `.`, `_`, `-`.
    static func isFileNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Whether `value` is one or more `/`-separated segments of `allowed` bytes, none
    /// empty, none `.` or `..`, within the segment and byte limits.
    /// The empty string is not a path here; callers that accept "" say so themselves.
    static func isValid(
        _ value: String, maxSegments: Int, maxBytes: Int, allowed: (UInt8) -> Bool
    ) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= maxBytes else { return false }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count <= maxSegments else { return false }
        for segment in segments {
            guard !segment.isEmpty, segment.allSatisfy(allowed) else { return false }
            if segment.allSatisfy({ $0 == UInt8(ascii: ".") }) && segment.count <= 2 { return false }
        }
        return true
    }

    /// A safe relative file name such as `music.svg` or `icons/music-fill.svg`.
    static func isValidFileName(_ value: String) -> Bool {
        isValid(value, maxSegments: 8, maxBytes: 128, allowed: isFileNameByte)
    }
}
