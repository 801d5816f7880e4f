// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerEngine
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

/// HTTPS on the engine itself, with real clients (curl, `openssl s_client`) and a CA and
/// certificates made at test time with `openssl` in a temporary directory.

/// The TLS flags and files: what stops the start, and a reload.
extension TLSServerTests {
    @Test("bad certificate or key files stop the start, naming the file and the problem")
    func startupErrors() throws {
        let certificates = try certificates()
        let missing = certificates.directory + "/missing.pem"
        let notPEM = certificates.directory + "/san.ext"
        let cases: [(certificate: String, key: String, expected: [String])] = [
            (missing, certificates.key, [missing, "No such file"]),
            (certificates.certificate, missing, [missing, "No such file"]),
            (certificates.directory, certificates.key, [certificates.directory, "Is a directory"]),
            (notPEM, certificates.key, [notPEM, "no PEM certificate"]),
            (certificates.certificate, notPEM, [notPEM, "no unencrypted PEM private key"]),
            (certificates.expired, certificates.expiredKey, [certificates.expired, "expired on 2020-01-02"]),
            (
                certificates.certificate, certificates.otherKey,
                [certificates.otherKey, "does not match", certificates.certificate]
            ),
        ]
        for (certificate, key, expected) in cases {
            var configuration = HTTPServerConfiguration(port: 0)
            configuration.tls = TLSSettings(certificatePath: certificate, keyPath: key)
            #expect {
                _ = try HTTPServer(configuration: configuration, responder: EchoResponder(), accessLog: nil)
            } throws: { error in
                let reason = (error as? HTTPServerError)?.reason ?? ""
                return expected.allSatisfy { reason.contains($0) }
            }
        }
    }

    @Test("the flags: both files needed, the minimum version 1.2 or 1.3 and only with them")
    func flags() throws {
        let parsed = try AppConfiguration.parse(
            arguments: ["--tls-certificate", "/c.pem", "--tls-key", "/k.pem", "--tls-min-version", "1.3"],
            environment: [:])
        guard case .run(let configuration) = parsed else { throw ToolFailed(description: "help") }
        #expect(
            configuration.http.tls == TLSSettings(certificatePath: "/c.pem", keyPath: "/k.pem", minimumVersion: .tls13))
        guard case .run(let plain) = try AppConfiguration.parse(arguments: [], environment: [:]) else { return }
        #expect(plain.http.tls == nil)
        for arguments in [
            ["--tls-certificate", "/c.pem"], ["--tls-key", "/k.pem"], ["--tls-min-version", "1.2"],
            ["--tls-certificate", "/c.pem", "--tls-key", "/k.pem", "--tls-min-version", "1.1"],
        ] {
            #expect(throws: ConfigurationError.self, "\(arguments)") {
                _ = try AppConfiguration.parse(arguments: arguments, environment: [:])
            }
        }
    }

    @Test("a reload with a mismatched key keeps the current certificate; a good one serves the next handshakes")
    func reload() throws {
        let certificates = try certificates()
        let directory = TestFixtures.temporaryDirectory("tabserver-tls-reload")
        let certificate = directory + "/fullchain.pem"
        let key = directory + "/privkey.pem"
        try FileManager.default.copyItem(atPath: certificates.certificate, toPath: certificate)
        try FileManager.default.copyItem(atPath: certificates.key, toPath: key)
        let app = try makeApp {
            $0.http.tls = TLSSettings(certificatePath: certificate, keyPath: key)
        }
        let server = try app.start()
        defer { server.shutdown() }
        // A bad renewal is refused and the current certificate stays.
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.copyItem(atPath: certificates.otherKey, toPath: key)
        #expect(throws: StartupError.self) { try server.reloadTLS() }
        let stillServed = sClient(server.port, certificates, ["-tls1_3", "-brief"])
        #expect(stillServed.status == 0, "\(stillServed.output)")
        // A good one (here: a new self-signed certificate) serves the next handshakes.
        try TLSServerTests.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", certificate, "-subj", "/CN=renewed.example", "-days", "2",
        ])
        #expect(try server.reloadTLS() != nil)
        let renewed = Self.run([
            "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_3", "-brief",
        ])
        #expect(renewed.output.contains("renewed.example"), "\(renewed.output)")
    }
}
