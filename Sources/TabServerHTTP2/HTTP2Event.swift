// SPDX-License-Identifier: Apache-2.0
/// What a `HTTP2Session` learned from the bytes it was given, for the server to act on.
public enum HTTP2Event: Sendable {
    /// The client opened a stream (its HEADERS began): its request is being read.
    case opened(streamID: Int32)
    /// A stream's request is complete: answer it with `respond`.
    case request(HTTP2Request)
    /// A stream's request broke a limit: answer it with the status the refusal names.
    case refused(streamID: Int32, HTTP2Refusal)
    /// A stream is closed (answered, reset by either side, or the connection ended):
    /// the server forgets it. `reset`: the client reset it before its answer was sent.
    case closed(streamID: Int32, reset: Bool)
}
