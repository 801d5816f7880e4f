// SPDX-License-Identifier: Apache-2.0
import CSSL

/// OpenSSL's client side, for the few requests the server makes itself (Web Push):
/// TLS 1.2 and 1.3, the peer's certificate checked against the system's trusted
/// certificates (or `trustedCertificatesPath` alone, for tests) and the host name.
///
/// ```swift
/// let tls = try TLSClientContext()
/// let session = try tls.connect(descriptor: socket, host: "push.example.net", deadline: .now + .seconds(10))
/// try session.write(request)
/// let bytes = try session.read(upTo: 4096)
/// ```
///
/// `@unchecked Sendable` is safe: the context is set up completely in `init` and never
/// changed after; OpenSSL lets any thread make sessions from a context no thread changes.
public final class TLSClientContext: @unchecked Sendable {
    private let context: OpaquePointer

    /// A client context trusting the system's certificates, or only those in the PEM
    /// file at `trustedCertificatesPath`. Throws when OpenSSL cannot make one or the file
    /// holds no certificate.
    public init(trustedCertificatesPath: String? = nil) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw TLSError("could not create a TLS client context: \(TLSContext.openSSLReason())")
        }
        let trusted =
            trustedCertificatesPath.map { SSL_CTX_load_verify_locations(context, $0, nil) == 1 }
            ?? (SSL_CTX_set_default_verify_paths(context) == 1)
        guard cssl_ctx_set_min_version(context, TLS1_2_VERSION) == 1, trusted else {
            let reason = TLSContext.openSSLReason()
            SSL_CTX_free(context)
            throw TLSError(
                "could not set up the TLS client: \(trustedCertificatesPath ?? "system certificates"): \(reason)")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // No renegotiation, no compression; a peer closing without close_notify reads as an end.
        cssl_ctx_set_server_options(context)
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// The client's handshake on the connected, non-blocking `descriptor`, finished by
    /// `deadline` (the session's reads and writes keep to it too), the certificate checked
    /// for `host` (a name, or an IP address in tests). Throws, saying why, when the
    /// handshake or the check fails, or time runs out.
    public func connect(descriptor: Int32, host: String, deadline: ContinuousClock.Instant) throws(TLSError)
        -> TLSClientSession
    {
        guard let ssl = SSL_new(context) else { throw TLSError("OpenSSL is out of memory") }
        let session = TLSClientSession(ssl: ssl, descriptor: descriptor, deadline: deadline)
        guard SSL_set_fd(ssl, descriptor) == 1 else { throw TLSError("could not attach the socket") }
        let isAddress = host.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":")
        }
        let named =
            isAddress
            ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
            : SSL_set1_host(ssl, host) == 1 && cssl_set_server_name(ssl, host) == 1
        guard named else { throw TLSError("could not ask for \(host): \(TLSContext.openSSLReason())") }
        do {
            try session.handshake()
        } catch {
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                let reason = String(cString: X509_verify_cert_error_string(verify))
                ERR_clear_error()
                throw TLSError("the certificate of \(host) is not trusted: \(reason)")
            }
            throw TLSError("TLS with \(host): \(error.reason)", timedOut: error.timedOut)
        }
        return session
    }
}
