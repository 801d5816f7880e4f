// SPDX-License-Identifier: Apache-2.0
/// How far a step of a `TLSSession` got without blocking.
public enum TLSProgress: Equatable, Sendable {
    /// Done: the bytes read or written (0 for a finished handshake).
    case done(Int)
    /// It needs the socket readable: retry when epoll says so.
    case wantRead
    /// It needs the socket writable: retry when epoll says so.
    case wantWrite
    /// The peer closed the connection (close_notify, or the end of the TCP stream).
    case closed
    /// A protocol error (garbage, a refused version or cipher) or a failed system call:
    /// the connection cannot go on.
    case failed
}
