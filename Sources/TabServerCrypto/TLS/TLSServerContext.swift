// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The TLS context a listener gives each new connection, from a certificate file and a
/// key file: replaced by `reload()` (the files read again, after a renewal) and, every
/// `rotationPeriod`, by a fresh context from the same certificate, so session-ticket keys
/// live in memory only and never longer than that. Connections keep the context they
/// began with; a ticket from before a rotation means a full handshake.
///
/// ```swift
/// let tls = try TLSServerContext(certificatePath: "fullchain.pem", keyPath: "privkey.pem", minimumVersion: .tls12)
/// let session = tls.makeSession(descriptor: socket)   // on an accepted connection
/// try tls.reload()                                    // on SIGHUP
/// ```
public final class TLSServerContext: Sendable {
    /// How long one context (and its ticket keys) serves new handshakes.
    public static let rotationPeriod: Duration = .seconds(3600)

    public let certificatePath: String
    public let keyPath: String
    public let minimumVersion: TLSMinimumVersion
    /// Whether ALPN offers `h2` (else only `http/1.1`).
    public let offersHTTP2: Bool

    private struct Current {
        var context: TLSContext
        var certificate: TLSContext.PEMFile
        var key: TLSContext.PEMFile
        var rotateAt: ContinuousClock.Instant
    }

    private let current: Mutex<Current>

    /// Reads both files and makes the first context; throws, naming the file, when one
    /// is missing, unreadable, expired or not the other's match.
    public init(
        certificatePath: String, keyPath: String, minimumVersion: TLSMinimumVersion, offersHTTP2: Bool = false
    ) throws(TLSError) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.minimumVersion = minimumVersion
        self.offersHTTP2 = offersHTTP2
        current = Mutex(
            try Self.load(
                certificatePath: certificatePath, keyPath: keyPath, minimumVersion: minimumVersion,
                offersHTTP2: offersHTTP2))
    }

    /// The current certificate's end of validity, as text.
    public var notAfter: String { current.withLock { $0.context.notAfter } }

    /// Reads the files again and serves new handshakes with them; on an error the
    /// current certificate stays in use.
    public func reload() throws(TLSError) {
        let loaded = try Self.load(
            certificatePath: certificatePath, keyPath: keyPath, minimumVersion: minimumVersion,
            offersHTTP2: offersHTTP2)
        current.withLock { $0 = loaded }
    }

    /// A server session on the accepted `descriptor` (nil when OpenSSL is out of memory).
    public func makeSession(descriptor: Int32) -> TLSSession? {
        context().makeSession(descriptor: descriptor)
    }

    /// The context for a new connection, rotated first when its time is up (from the
    /// bytes already read: a rotation never meets a half-renewed file).
    private func context() -> TLSContext {
        current.withLock { current in
            let now = ContinuousClock.now
            if now >= current.rotateAt,
                let fresh = try? TLSContext(
                    certificate: current.certificate, key: current.key, minimumVersion: minimumVersion,
                    ticketLifetimeSeconds: Self.ticketLifetimeSeconds, offersHTTP2: offersHTTP2)
            {
                current.context = fresh
            }
            if now >= current.rotateAt { current.rotateAt = now + Self.rotationPeriod }
            return current.context
        }
    }

    /// Tickets outlive no rotation by much: a client resumes within the period.
    private static let ticketLifetimeSeconds = Int(rotationPeriod.components.seconds)

    private static func load(
        certificatePath: String, keyPath: String, minimumVersion: TLSMinimumVersion, offersHTTP2: Bool
    ) throws(TLSError) -> Current {
        let certificate = TLSContext.PEMFile(
            path: certificatePath, bytes: try readFile(certificatePath, role: "TLS certificate"))
        let key = TLSContext.PEMFile(path: keyPath, bytes: try readFile(keyPath, role: "TLS key"))
        let context = try TLSContext(
            certificate: certificate, key: key, minimumVersion: minimumVersion,
            ticketLifetimeSeconds: ticketLifetimeSeconds, offersHTTP2: offersHTTP2)
        return Current(context: context, certificate: certificate, key: key, rotateAt: .now + rotationPeriod)
    }

    /// A PEM file's bytes (at most 1 MiB); the error names it and what the system said.
    private static func readFile(_ path: String, role: String) throws(TLSError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TLSError("\(role) \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TLSError("\(role) \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > 1 << 20 { throw TLSError("\(role) \(path): larger than 1 MiB, not a PEM file") }
        }
    }
}
