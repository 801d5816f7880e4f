// SPDX-License-Identifier: Apache-2.0
import CSSL

/// One client connection after its handshake, on a blocking socket whose timeouts
/// bound every read and write. Not `Sendable`: one thread uses it. It does not close the
/// descriptor.
public final class TLSClientSession {
    private let ssl: OpaquePointer

    init(ssl: OpaquePointer) { self.ssl = ssl }

    deinit { SSL_free(ssl) }

    /// Writes all of `bytes`; throws when the connection fails or times out.
    public func write(_ bytes: [UInt8]) throws(TLSError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            var count = 0
            let wrote = bytes[offset...].withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &count) }
            guard wrote == 1 else { throw TLSError("the write failed or timed out") }
            offset += count
        }
    }

    /// Up to `limit` bytes, as soon as some arrive; empty at the end of the stream.
    /// Throws when the connection fails or the socket's timeout passes first.
    public func read(upTo limit: Int) throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        var count = 0
        ERR_clear_error()
        let result = buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, $0.count, &count) }
        if result == 1 { return Array(buffer.prefix(count)) }
        let code = SSL_get_error(ssl, 0)
        ERR_clear_error()
        if code == SSL_ERROR_ZERO_RETURN { return [] }
        throw TLSError("the read failed or timed out")
    }

    /// Sends close_notify (without waiting for the peer's).
    public func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }
}
