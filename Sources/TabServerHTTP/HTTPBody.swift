// SPDX-License-Identifier: Apache-2.0
/// The body of a response.
public enum HTTPBody: Sendable, Hashable {
    /// No body (a 303, a 304, or a HEAD answer).
    case empty
    /// Bytes built for this response (a rendered page); the engine copies them once.
    case bytes([UInt8])
    /// Immutable bytes shared by many responses (a static file in memory); the engine
    /// sends them without copying and keeps them alive until the response is gone.
    case shared(SharedBytes)
    /// Bytes written while the connection stays open (Server-Sent Events); the length is
    /// unknown, so the response ends when the stream is closed (and the connection with it).
    case stream(ResponseStream)

    /// The body's length in bytes.
    public var count: Int {
        switch self {
        case .empty: 0
        case .bytes(let bytes): bytes.count
        case .shared(let shared): shared.count
        case .stream: 0
        }
    }

    /// The body as an array (for tests and logs; copies `.shared`).
    public var bytes: [UInt8] {
        switch self {
        case .empty: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.array
        case .stream: []
        }
    }
}
