// SPDX-License-Identifier: Apache-2.0
import CSSL

/// One OpenSSL server context: a certificate chain and its key, TLS 1.2 and 1.3 only,
/// Mozilla's "intermediate" ciphers for 1.2, resumption by session ticket (under keys
/// OpenSSL draws at random for this context alone; no server-side session cache).
///
/// ```swift
/// let context = try TLSContext(
///     certificate: .init(path: "fullchain.pem", bytes: chain), key: .init(path: "privkey.pem", bytes: key),
///     minimumVersion: .tls12)
/// let session = context.makeSession(descriptor: socket)
/// ```
///
/// `@unchecked Sendable` is safe: the context is set up completely in `init` and never
/// changed after; OpenSSL lets any thread make sessions from a context that no thread
/// changes, and the sessions hold their own reference to it (it outlives this object
/// while a session uses it).
public final class TLSContext: @unchecked Sendable {
    /// A PEM file's path (for messages) and its bytes.
    public struct PEMFile: Sendable {
        public let path: String
        public let bytes: [UInt8]

        /// A file already read.
        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Mozilla's "intermediate" TLS 1.2 ciphers without the DHE ones (they would need
    /// Diffie-Hellman parameters): ECDHE key exchange, AES-GCM or ChaCha20-Poly1305.
    /// TLS 1.3's suites are OpenSSL's default (all three are in that list too).
    static let intermediateCiphers =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
    /// The key exchange groups of the same recommendation.
    static let groups = "X25519:prime256v1:secp384r1"

    private let context: OpaquePointer

    /// The leaf certificate's end of validity, as text ("2027-03-01 12:00:00 UTC").
    public let notAfter: String

    /// A context serving `certificate` (the leaf first, then its chain) with `key`.
    /// Throws, naming the file, when either holds no PEM object, the certificate is
    /// expired or not yet valid, or the key is not the certificate's.
    /// `offersHTTP2`: ALPN picks `h2` when the client offers it (else `http/1.1`).
    public init(
        certificate: PEMFile, key: PEMFile, minimumVersion: TLSMinimumVersion, ticketLifetimeSeconds: Int,
        offersHTTP2: Bool = false
    ) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError("could not create a TLS context: \(Self.openSSLReason())")
        }
        do throws(TLSError) {
            try Self.configure(context, minimumVersion: minimumVersion, ticketLifetimeSeconds: ticketLifetimeSeconds)
            notAfter = try Self.useCertificates(certificate, in: context)
            try Self.useKey(key, certificate: certificate, in: context)
            SSL_CTX_set_alpn_select_cb(context, offersHTTP2 ? Self.selectH2 : Self.selectHTTP11, nil)
        } catch {
            SSL_CTX_free(context)
            ERR_clear_error()
            throw error
        }
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// A server session on the connected, non-blocking `descriptor`; nil when OpenSSL is
    /// out of memory.
    public func makeSession(descriptor: Int32) -> TLSSession? {
        TLSSession(context: context, descriptor: descriptor)
    }

    private static func configure(
        _ context: OpaquePointer, minimumVersion: TLSMinimumVersion, ticketLifetimeSeconds: Int
    ) throws(TLSError) {
        guard cssl_ctx_set_min_version(context, minimumVersion.openSSLVersion) == 1,
            cssl_ctx_set_max_version(context, TLS1_3_VERSION) == 1,
            SSL_CTX_set_cipher_list(context, intermediateCiphers) == 1,
            cssl_ctx_set_groups(context, groups) == 1
        else {
            throw TLSError("could not configure TLS versions and ciphers: \(openSSLReason())")
        }
        cssl_ctx_set_server_modes(context)
        cssl_ctx_set_server_options(context)
        cssl_ctx_disable_session_cache(context)
        SSL_CTX_set_timeout(context, ticketLifetimeSeconds)
        // One ticket per full handshake is what a client resumes with.
        SSL_CTX_set_num_tickets(context, 1)
    }

    /// ALPN (RFC 7301): `h2` when the client offers it, else `http/1.1`; a client that
    /// offers neither gets no protocol named (and is served HTTP/1.1).
    private static let selectH2: SSLALPNCallback = { _, out, outLength, offered, offeredLength, _ in
        choose(["h2", "http/1.1"], out, outLength, offered, offeredLength)
    }
    private static let selectHTTP11: SSLALPNCallback = { _, out, outLength, offered, offeredLength, _ in
        choose(["http/1.1"], out, outLength, offered, offeredLength)
    }

    typealias SSLALPNCallback =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
            UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
        ) -> Int32

    /// The first of `preferred` in the client's list (length-prefixed names), pointed to
    /// inside that list as OpenSSL requires.
    private static func choose(
        _ preferred: [String], _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        _ outLength: UnsafeMutablePointer<UInt8>?, _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32
    ) -> Int32 {
        guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
        let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
        for name in preferred {
            var index = 0
            while index < list.count {
                let length = Int(list[index])
                let start = index + 1
                guard start + length <= list.count else { break }
                if list[start..<(start + length)].elementsEqual(name.utf8) {
                    out.pointee = offered + start
                    outLength.pointee = UInt8(length)
                    return SSL_TLSEXT_ERR_OK
                }
                index = start + length
            }
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    /// Installs the leaf and its chain; returns the leaf's end of validity.
    private static func useCertificates(_ file: PEMFile, in context: OpaquePointer) throws(TLSError) -> String {
        var certificates = readCertificates(file.bytes)
        defer { for certificate in certificates { X509_free(certificate) } }
        guard let leaf = certificates.first else {
            throw TLSError("TLS certificate \(file.path): no PEM certificate in it")
        }
        let notAfter = text(of: X509_get0_notAfter(leaf))
        if X509_cmp_current_time(X509_get0_notAfter(leaf)) < 0 {
            throw TLSError("TLS certificate \(file.path): expired on \(notAfter)")
        }
        if X509_cmp_current_time(X509_get0_notBefore(leaf)) > 0 {
            throw TLSError("TLS certificate \(file.path): not valid before \(text(of: X509_get0_notBefore(leaf)))")
        }
        guard SSL_CTX_use_certificate(context, leaf) == 1 else {
            throw TLSError("TLS certificate \(file.path): \(openSSLReason())")
        }
        // The chain takes ownership of the intermediates (the leaf was copied by reference).
        while certificates.count > 1 {
            let intermediate = certificates.removeLast()
            guard cssl_ctx_add_chain_certificate(context, intermediate) == 1 else {
                X509_free(intermediate)
                throw TLSError("TLS certificate \(file.path): a chain certificate: \(openSSLReason())")
            }
        }
        return notAfter
    }

    private static func useKey(_ key: PEMFile, certificate: PEMFile, in context: OpaquePointer) throws(TLSError) {
        let privateKey = key.bytes.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            // No passphrase prompt: an encrypted key is refused.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let privateKey else {
            ERR_clear_error()
            throw TLSError("TLS key \(key.path): no unencrypted PEM private key in it")
        }
        defer { EVP_PKEY_free(privateKey) }
        guard SSL_CTX_use_PrivateKey(context, privateKey) == 1, SSL_CTX_check_private_key(context) == 1 else {
            ERR_clear_error()
            throw TLSError("TLS key \(key.path): does not match the certificate \(certificate.path)")
        }
    }

    /// The certificates of a PEM text, in order (the caller frees them).
    private static func readCertificates(_ bytes: [UInt8]) -> [OpaquePointer] {
        var certificates: [OpaquePointer] = []
        bytes.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return }
            defer { BIO_free(bio) }
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(certificate) }
        }
        ERR_clear_error()  // the end of the text reads as "no start line"
        return certificates
    }

    /// An ASN.1 time as "YYYY-MM-DD hh:mm:ss UTC".
    private static func text(of time: UnsafePointer<ASN1_TIME>?) -> String {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "an unreadable date" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }

    /// The oldest error on this thread's OpenSSL queue as text, and the queue cleared.
    static func openSSLReason() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown OpenSSL error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
