// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP2

/// A response body as nghttp2 reads it, DATA frame by DATA frame: bytes, a shared static
/// body (referenced, not copied), or what an app's stream has written so far (more is
/// appended as it writes; it ends when the stream closes).
final class HTTP2ResponseBody: HTTP2BodySource {
    private var bytes: [UInt8]
    private var shared: SharedBytes?
    private var offset = 0
    /// The app's stream, when the body is one.
    let stream: ResponseStream?
    /// No more bytes will be appended.
    private(set) var ended: Bool

    init(bytes: [UInt8]) {
        self.bytes = bytes
        stream = nil
        ended = true
    }

    init(shared: SharedBytes) {
        bytes = []
        self.shared = shared
        stream = nil
        ended = true
    }

    init(stream: ResponseStream) {
        bytes = []
        self.stream = stream
        ended = false
    }

    /// Bytes not yet read by nghttp2.
    var unread: Int { (shared?.count ?? bytes.count) - offset }

    /// More of a stream's bytes; `last`: the stream has ended.
    func append(_ more: [UInt8], last: Bool) {
        if offset > 0 && offset == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            offset = 0
        }
        bytes.append(contentsOf: more)
        if last { ended = true }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
        let count = min(buffer.count, unread)
        if count > 0 {
            if let shared {
                buffer.baseAddress!.copyMemory(from: shared.baseAddress + offset, byteCount: count)
            } else {
                bytes.withUnsafeBytes { source in
                    buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
                }
            }
            offset += count
        }
        let done = ended && unread == 0
        if count == 0 && !done { return .later }
        return .bytes(count, last: done)
    }
}
