// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// The server's VAPID key in a PEM file: read when it is there, made and written (mode
/// 0600, created exclusively, so two instances starting together keep one key) when
/// it is not. Browsers subscribe with its public key, so it must stay the same across
/// restarts and on every instance.
///
/// ```swift
/// let key = try VAPIDKeyFile.loadOrCreate(path: "data/vapid.pem")
/// ```
public enum VAPIDKeyFile {
    /// The key in the file at `path`, created there when absent. Throws, naming the file,
    /// when it cannot be read or written or holds no P-256 private key.
    public static func loadOrCreate(path: String) throws(WebPushError) -> P256PrivateKey {
        if let bytes = try read(path) { return try parse(bytes, path: path) }
        let key = P256PrivateKey.generate()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            // Made meanwhile by another instance: use that one.
            if errno == EEXIST, let bytes = try read(path) { return try parse(bytes, path: path) }
            throw WebPushError("VAPID key \(path): cannot create it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let pem = key.pemRepresentation
        var written = 0
        while written < pem.count {
            let count = pem[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw WebPushError("VAPID key \(path): cannot write it: \(reason)")
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            throw WebPushError("VAPID key \(path): cannot sync it: \(String(cString: strerror(errno)))")
        }
        return key
    }

    private static func parse(_ bytes: [UInt8], path: String) throws(WebPushError) -> P256PrivateKey {
        do {
            return try P256PrivateKey(pemRepresentation: bytes)
        } catch {
            throw WebPushError("VAPID key \(path): \(error.reason)")
        }
    }

    /// The file's bytes (at most 64 KiB), nil when there is no file.
    private static func read(_ path: String) throws(WebPushError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw WebPushError("VAPID key \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw WebPushError("VAPID key \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > 65536 { throw WebPushError("VAPID key \(path): larger than 64 KiB") }
        }
    }
}
