// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerPush
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("VAPID (RFC 8292, ES256)")
struct VAPIDTests {
    @Test("a token names the endpoint's origin, expires within a day, and its signature verifies with k")
    func token() throws {
        let key = P256PrivateKey.generate()
        let endpoint = try PushEndpoint("https://push.example.net:8443/send/abc?x=1")
        let header = try VAPID.authorization(for: endpoint, key: key, subject: "mailto:ops@example.com", now: 1_000)
        #expect(header.hasPrefix("vapid t="))
        let parts = header.dropFirst("vapid t=".count).split(separator: ",")
        let token = String(parts[0])
        let k = parts[1].trimmingPrefix(" k=")
        #expect(Base64URL.decode(k) == key.publicKey.rawRepresentation)
        let pieces = token.split(separator: ".")
        #expect(pieces.count == 3)
        let claims = String(decoding: Base64URL.decode(pieces[1])!, as: UTF8.self)
        #expect(claims == #"{"aud":"https://push.example.net:8443","exp":44200,"sub":"mailto:ops@example.com"}"#)
        let header64 = String(decoding: Base64URL.decode(pieces[0])!, as: UTF8.self)
        #expect(header64 == #"{"typ":"JWT","alg":"ES256"}"#)
        let signature = Base64URL.decode(pieces[2])!
        #expect(signature.count == 64)
        let signed = Array("\(pieces[0]).\(pieces[1])".utf8)
        #expect(key.publicKey.isValidSignature(signature, for: signed))
        #expect(!key.publicKey.isValidSignature(signature, for: signed + [0x2E]))
        #expect(!P256PrivateKey.generate().publicKey.isValidSignature(signature, for: signed))
    }

    @Test("the key file is made once (mode 0600) and read back as the same key; garbage in it is refused")
    func keyFile() throws {
        let directory = "/tmp/tabserver-vapid-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o700)
        defer {
            unlink(directory + "/vapid.pem")
            unlink(directory + "/bad.pem")
            rmdir(directory)
        }
        let path = directory + "/vapid.pem"
        let made = try VAPIDKeyFile.loadOrCreate(path: path)
        let again = try VAPIDKeyFile.loadOrCreate(path: path)
        #expect(made.publicKey == again.publicKey)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let bad = directory + "/bad.pem"
        let descriptor = open(bad, O_WRONLY | O_CREAT, 0o600)
        _ = "not a key\n".withCString { write(descriptor, $0, 10) }
        close(descriptor)
        #expect(throws: WebPushError.self) { try VAPIDKeyFile.loadOrCreate(path: bad) }
    }

    @Test("a PEM key written and read again signs as the same key")
    func pemRoundTrip() throws {
        let key = P256PrivateKey.generate()
        let pem = key.pemRepresentation
        #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let read = try P256PrivateKey(pemRepresentation: pem)
        let signature = try read.signature(for: [1, 2, 3])
        #expect(key.publicKey.isValidSignature(signature, for: [1, 2, 3]))
    }
}
