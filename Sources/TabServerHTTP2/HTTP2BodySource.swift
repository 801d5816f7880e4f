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

/// What one `HTTP2BodySource.read` produced.
public enum HTTP2BodyChunk: Sendable, Equatable {
    /// `count` bytes were copied; `last`: the body ends with them.
    case bytes(Int, last: Bool)
    /// Nothing yet (a stream waiting for the app): call `HTTP2Session.resume` when there is.
    case later
}
