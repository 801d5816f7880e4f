// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Decodes a `Transfer-Encoding: chunked` body as it arrives (RFC 9112 §7.1), strictly:
/// hexadecimal sizes of at most 16 digits, CRLF line ends, bounded extensions and
/// trailer fields (read and ignored; at most 16 KiB of them). Written here because picohttpparser's decoder
/// is not exported with a stable layout by Debian's library.
package struct ChunkedDecoder: Sendable {
    private enum State {
        case size, sizeWhitespace, sizeExtension, sizeLineFeed, data, dataCarriageReturn, dataLineFeed
        case trailerLineStart, trailerLine, trailerLineFeed, finalLineFeed, done
    }

    private var state = State.size
    private var digits = 0
    private var remaining: UInt64 = 0
    private var lineBytes = 0
    /// Bytes of the whole trailer section, bounded so endless trailer lines cannot keep
    /// a connection busy outside the body limit.
    private var trailerBytes = 0

    package init() {}

    /// Whether the last chunk and trailer section have been read.
    package var isDone: Bool { state == .done }

    /// Consumes bytes of `input`, appending chunk data to `body`; returns how many bytes
    /// were consumed (fewer than given only once the body is complete).
    package mutating func decode(_ input: UnsafeRawBufferPointer, into body: inout [UInt8]) throws(EngineRejection)
        -> Int
    {
        var index = 0
        while index < input.count && state != .done {
            let byte = input[index]
            switch state {
            case .size:
                if let value = URLEncoding.hexValue(byte) {
                    digits += 1
                    guard digits <= 16 else { throw Self.malformed }
                    remaining = remaining << 4 | UInt64(value)
                } else if digits > 0 && byte == UInt8(ascii: ";") {
                    state = .sizeExtension
                } else if digits > 0 && (byte == UInt8(ascii: " ") || byte == 9) {
                    state = .sizeWhitespace
                } else if digits > 0 && byte == 13 {
                    state = .sizeLineFeed
                } else {
                    throw Self.malformed
                }
            case .sizeWhitespace:
                // Only whitespace before a `;` extension or the line end (`5 x` is no size).
                lineBytes += 1
                guard lineBytes <= 1024 else { throw Self.malformed }
                if byte == UInt8(ascii: ";") {
                    state = .sizeExtension
                } else if byte == 13 {
                    state = .sizeLineFeed
                } else if byte != UInt8(ascii: " ") && byte != 9 {
                    throw Self.malformed
                }
            case .sizeExtension:
                lineBytes += 1
                guard lineBytes <= 1024, byte >= 0x20 || byte == 9 || byte == 13, byte != 0x7f else {
                    throw Self.malformed
                }
                if byte == 13 { state = .sizeLineFeed }
            case .sizeLineFeed:
                guard byte == 10 else { throw Self.malformed }
                digits = 0
                lineBytes = 0
                state = remaining == 0 ? .trailerLineStart : .data
            case .data:
                let take = Int(min(UInt64(input.count - index), remaining))
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                remaining -= UInt64(take)
                index += take
                if remaining == 0 { state = .dataCarriageReturn }
                continue
            case .dataCarriageReturn:
                guard byte == 13 else { throw Self.malformed }
                state = .dataLineFeed
            case .dataLineFeed:
                guard byte == 10 else { throw Self.malformed }
                state = .size
            case .trailerLineStart:
                // A trailer field starts with a token character: never a bare LF, a
                // control byte or whitespace (obs-fold), which would end the body early
                // for one parser and late for another.
                if byte == 13 {
                    state = .finalLineFeed
                } else {
                    guard byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: ":") else { throw Self.malformed }
                    state = .trailerLine
                    lineBytes = 1
                }
            case .trailerLine:
                lineBytes += 1
                trailerBytes += 1
                guard lineBytes <= 8192, trailerBytes <= 16384, byte >= 0x20 || byte == 9 || byte == 13, byte != 0x7f
                else {
                    throw Self.malformed
                }
                if byte == 13 { state = .trailerLineFeed }
            case .trailerLineFeed:
                guard byte == 10 else { throw Self.malformed }
                state = .trailerLineStart
            case .finalLineFeed:
                guard byte == 10 else { throw Self.malformed }
                state = .done
            case .done:
                break
            }
            index += 1
        }
        return index
    }

    private static let malformed = EngineRejection(status: .badRequest, message: "The chunked body is malformed.")
}
