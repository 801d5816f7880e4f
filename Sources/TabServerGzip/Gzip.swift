// SPDX-License-Identifier: Apache-2.0
import CZlib

/// gzip compression through zlib, used once per static file at start-up (never per
/// request), and by tests to read what the server sent.
///
/// ```swift
/// let packed = try Gzip.compress(Array(css.utf8))
/// ```
public enum Gzip {
    /// A zlib failure, with zlib's return code.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let operation: String
        public let code: Int32
        public var description: String { "zlib \(operation) failed with code \(code)" }
    }

    /// The gzip member (RFC 1952) of `bytes` at `level` (1–9).
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let initStatus = tabserver_deflate_init_gzip(&stream, level)
        guard initStatus == Z_OK else { throw Failure(operation: "deflateInit2", code: initStatus) }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound + 32)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(operation: "deflate", code: status) }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// The uncompressed bytes of a gzip member; throws on corrupt input or when the
    /// output would exceed `limit` bytes (a guard against decompression bombs).
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let initStatus = tabserver_inflate_init_gzip(&stream)
        guard initStatus == Z_OK else { throw Failure(operation: "inflateInit2", code: initStatus) }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while status == Z_OK {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return outBuffer.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit {
                    status = Z_BUF_ERROR
                    break
                }
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
            }
        }
        guard status == Z_STREAM_END else { throw Failure(operation: "inflate", code: status) }
        return output
    }
}
