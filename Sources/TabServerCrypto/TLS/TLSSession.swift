// SPDX-License-Identifier: Apache-2.0
import CSSL

/// TLS on one non-blocking connected socket: the server side of a handshake, then
/// records read and written. Every call returns at once; `wantRead` and `wantWrite` say
/// which readiness to wait for before calling again.
///
/// ```swift
/// guard let session = context.makeSession(descriptor: socket) else { close(socket); return }
/// switch session.handshake() { case .done: ...; case .wantRead: ...; default: ... }
/// ```
///
/// Not `Sendable`: one event loop owns it, with its connection. It does not close the
/// descriptor.
public final class TLSSession {
    private let ssl: OpaquePointer
    /// The negotiated version, named once the handshake is done.
    private var negotiatedVersion: String?

    /// Whether the handshake has finished.
    public private(set) var isEstablished = false

    init?(context: OpaquePointer, descriptor: Int32) {
        guard let ssl = SSL_new(context) else { return nil }
        guard SSL_set_fd(ssl, descriptor) == 1 else {
            SSL_free(ssl)
            ERR_clear_error()
            return nil
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
    }

    deinit { SSL_free(ssl) }

    /// Advances the handshake: `.done(0)` once it is finished.
    public func handshake() -> TLSProgress {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            negotiatedVersion = String(cString: SSL_get_version(ssl))
            var name: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &name, &length)
            if let name, length > 0 {
                applicationProtocol = String(
                    decoding: UnsafeBufferPointer(start: name, count: Int(length)), as: UTF8.self)
            }
            return .done(0)
        }
        return failure(of: result)
    }

    /// Reads decrypted bytes into `buffer` (at most one record's).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> TLSProgress {
        ERR_clear_error()
        var count = 0
        if SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count) == 1 { return .done(count) }
        return failure(of: 0)
    }

    /// Writes (part of) `bytes`; after `wantWrite`, call again with at least the same bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) -> TLSProgress {
        guard !bytes.isEmpty else { return .done(0) }
        ERR_clear_error()
        var count = 0
        if SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &count) == 1 { return .done(count) }
        return failure(of: 0)
    }

    /// Sends close_notify if it fits the socket buffer (the close does not wait for the
    /// peer's), before the write side is shut.
    public func shutdown() {
        guard isEstablished else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// The protocol ALPN chose ("h2", "http/1.1"), once established; nil when the client
    /// offered none.
    public private(set) var applicationProtocol: String?

    /// "TLSv1.2" or "TLSv1.3" once established, else nil.
    public var version: String? { negotiatedVersion }

    private func failure(of result: Int32) -> TLSProgress {
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            // The thread's error queue would otherwise keep the reason for the next call.
            ERR_clear_error()
            return .failed
        }
    }
}
