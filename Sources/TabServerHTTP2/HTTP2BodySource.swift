// SPDX-License-Identifier: Apache-2.0
/// Where a response body's bytes come from when nghttp2 asks for the next DATA frame:
/// the server's own buffers (a page, a static file, what a stream wrote so far).
///
/// ```swift
/// final class Page: HTTP2BodySource {
///     func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk { ... }
/// }
/// ```
public protocol HTTP2BodySource: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk
}
