// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions

/// A rendered page with the places of its CSRF token recorded, so one rendering serves
/// every visitor who sees the same page: copying 9 KB and writing a 22-byte token is
/// ten times cheaper than rendering the templates again.
///
/// The page is rendered with `placeholder` as the token, a random value drawn at start:
/// it cannot occur in content by accident (a 128-bit coincidence), and each occurrence
/// is replaced by the visitor's token of the same length.
///
/// A class, immutable: the render cache owns each rendering, and the finished pages made
/// from it (`PageAnswerCache`) refer to it without keeping it alive.
package final class TokenizedPage: Sendable {
    package static let placeholder = SessionID.generate()
    private static let placeholderBytes = Array(placeholder.text.utf8)

    package let bytes: [UInt8]
    package let tokenOffsets: [Int]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        let needle = Self.placeholderBytes
        var offsets: [Int] = []
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) {
                offsets.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        tokenOffsets = offsets
    }

    /// The page for a visitor whose token is `token`, assembled straight into memory the
    /// engine sends without copying again (see `SharedBytes`).
    package func filled(with token: SessionID) -> SharedBytes {
        let tokenBytes = token.text.utf8
        // Written without bounds checks below: every token is as long as the placeholder.
        precondition(tokenBytes.count == Self.placeholderBytes.count, "a form token of another length")
        return SharedBytes(count: bytes.count) { memory in
            bytes.withUnsafeBytes { page in memory.copyMemory(from: page) }
            for offset in tokenOffsets {
                var index = offset
                for byte in tokenBytes {
                    memory[index] = byte
                    index += 1
                }
            }
        }
    }
}
