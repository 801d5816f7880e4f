// SPDX-License-Identifier: Apache-2.0
/// What one `HTTP2BodySource.read` produced.
public enum HTTP2BodyChunk: Sendable, Equatable {
    /// `count` bytes were copied; `last`: the body ends with them.
    case bytes(Int, last: Bool)
    /// Nothing yet (a stream waiting for the app): call `HTTP2Session.resume` when there is.
    case later
}
