// SPDX-License-Identifier: Apache-2.0
import CSSL

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection after its handshake, on a non-blocking socket: every read and
/// write waits for the socket at most until the deadline the connection was made with,
/// however the peer spreads its bytes. Not `Sendable`: one thread uses it. It does not
/// close the descriptor.
public final class TLSClientSession {
    private let ssl: OpaquePointer
    private let descriptor: Int32
    private let deadline: ContinuousClock.Instant

    init(ssl: OpaquePointer, descriptor: Int32, deadline: ContinuousClock.Instant) {
        self.ssl = ssl
        self.descriptor = descriptor
        self.deadline = deadline
    }

    deinit { SSL_free(ssl) }

    /// Writes all of `bytes`; throws when the connection fails or the deadline passes.
    public func write(_ bytes: [UInt8]) throws(TLSError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            var count = 0
            let wrote = bytes[offset...].withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &count) }
            if wrote == 1 {
                offset += count
                continue
            }
            try wait(for: SSL_get_error(ssl, wrote), doing: "write")
        }
    }

    /// Up to `limit` bytes, as soon as some arrive; empty at the end of the stream.
    /// Throws when the connection fails or the deadline passes first.
    public func read(upTo limit: Int) throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        while true {
            var count = 0
            ERR_clear_error()
            let result = buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, $0.count, &count) }
            if result == 1 { return Array(buffer.prefix(count)) }
            let code = SSL_get_error(ssl, result)
            if code == SSL_ERROR_ZERO_RETURN {
                ERR_clear_error()
                return []
            }
            try wait(for: code, doing: "read")
        }
    }

    /// The handshake, its steps waiting for the socket as `read` and `write` do.
    func handshake() throws(TLSError) {
        while true {
            ERR_clear_error()
            let result = SSL_connect(ssl)
            if result == 1 { return }
            try wait(for: SSL_get_error(ssl, result), doing: "handshake")
        }
    }

    /// Sends close_notify (without waiting for the peer's).
    public func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Waits until the socket is ready for what OpenSSL asked (`code`), at most until the
    /// deadline; throws for any other outcome.
    private func wait(for code: Int32, doing step: String) throws(TLSError) {
        let events: Int16
        switch code {
        case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
        case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
        case SSL_ERROR_SYSCALL, SSL_ERROR_ZERO_RETURN:
            ERR_clear_error()
            throw TLSError("the \(step) failed: the connection ended")
        default:
            throw TLSError("the \(step) failed: \(TLSContext.openSSLReason())")
        }
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw TLSError("the \(step) did not finish in time", timedOut: true) }
        // Rounded up, so a wait that ends finds the deadline passed.
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        var poller = pollfd(fd: descriptor, events: events, revents: 0)
        let ready = poll(&poller, 1, Int32(clamping: milliseconds))
        if ready == 0 { throw TLSError("the \(step) did not finish in time", timedOut: true) }
        if ready < 0 && errno != EINTR { throw TLSError("the \(step) failed: the socket cannot be waited for") }
    }
}
