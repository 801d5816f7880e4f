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

#if canImport(Glibc)
    import Glibc
#endif

/// HTTPS on the engine itself, with real clients (curl, `openssl s_client`) and a CA and
/// certificates made at test time with `openssl` in a temporary directory.
@Suite("TLS on the engine", .serialized)
struct TLSServerTests {
    /// A test CA, a certificate for 127.0.0.1 and localhost it signed, and some bad files.
    struct Certificates {
        let directory: String
        var ca: String { directory + "/ca.pem" }
        var certificate: String { directory + "/server.pem" }
        var key: String { directory + "/server.key" }
        var otherKey: String { directory + "/other.key" }
        var expired: String { directory + "/expired.pem" }
        var expiredKey: String { directory + "/expired.key" }

        static let shared: Result<Certificates, any Error> = Result { try Certificates() }

        private init() throws {
            directory = TestFixtures.temporaryDirectory("tabserver-tls")
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", directory + "/ca.key", "-out", ca, "-subj", "/CN=TabServer Test CA", "-days", "2",
                ])
            try openssl(["req"] + ec + ["-keyout", key, "-out", directory + "/server.csr", "-subj", "/CN=localhost"])
            TestFixtures.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n", to: directory + "/san.ext")
            try openssl([
                "x509", "-req", "-in", directory + "/server.csr", "-CA", ca, "-CAkey", directory + "/ca.key",
                "-CAcreateserial", "-days", "2", "-extfile", directory + "/san.ext", "-out", directory + "/leaf.pem",
            ])
            // A full chain: the leaf, then the CA (as an intermediate would follow it).
            let leaf = try String(contentsOfFile: directory + "/leaf.pem", encoding: .utf8)
            let caText = try String(contentsOfFile: ca, encoding: .utf8)
            TestFixtures.write(leaf + caText, to: certificate)
            try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", otherKey])
            // An expired one: `openssl ca` takes explicit dates.
            try openssl(
                ["req"] + ec + ["-keyout", expiredKey, "-out", directory + "/expired.csr", "-subj", "/CN=localhost"])
            TestFixtures.write("", to: directory + "/index.txt")
            TestFixtures.write("01\n", to: directory + "/serial")
            TestFixtures.write(
                "[ca]\ndefault_ca = test\n[test]\ndatabase = \(directory)/index.txt\nnew_certs_dir = \(directory)\nserial = \(directory)/serial\ndefault_md = sha256\npolicy = any\n[any]\ncommonName = supplied\n",
                to: directory + "/ca.cnf")
            try openssl([
                "ca", "-batch", "-config", directory + "/ca.cnf", "-cert", ca, "-keyfile", directory + "/ca.key",
                "-in", directory + "/expired.csr", "-out", expired, "-startdate", "20200101000000Z", "-enddate",
                "20200102000000Z", "-notext",
            ])
        }
    }

    struct ToolFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl` with `arguments`; throws when it fails.
    static func openssl(_ arguments: [String]) throws {
        let result = run(["/usr/bin/openssl"] + arguments)
        if result.status != 0 { throw ToolFailed(description: "openssl \(arguments.first ?? ""): \(result.output)") }
    }

    /// Runs a program to its end (at most 30 s): its exit status and its output and error together.
    static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let shell = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        guard let child = try? ChildProcess(["/bin/sh", "-c", "exec " + shell + " 2>&1"], standardOutput: .pipe) else {
            return (-1, "could not start \(arguments[0])")
        }
        let output = child.readAllOutput()
        let status: Int32
        switch child.waitForExit(.seconds(30)) {
        case .exited(let code)?: status = code
        default:
            _ = child.stop(SIGKILL)
            status = -1
        }
        return (status, output)
    }

    func certificates() throws -> Certificates { try Certificates.shared.get() }

    func startServer(
        _ certificates: Certificates, log: LogFormatTests.FileLog? = nil,
        configure: (inout AppConfiguration) -> Void = { _ in }
    ) throws -> AppServer {
        try Self.startServer(certificates, log: log, headerTimeout: .seconds(1), configure: configure)
    }

    /// The demo app over TLS with this CA's certificate, on a free loopback port.
    static func startServer(
        _ certificates: Certificates, log: LogFormatTests.FileLog?, headerTimeout: Duration,
        configure: (inout AppConfiguration) -> Void
    ) throws -> AppServer {
        let app = try makeApp {
            $0.http.tls = TLSSettings(certificatePath: certificates.certificate, keyPath: certificates.key)
            $0.http.headerTimeout = headerTimeout
            $0.accessLog = log != nil
            configure(&$0)
        }
        return try app.start(accessLog: log?.sink)
    }

    func curl(_ certificates: Certificates, _ arguments: [String]) -> (status: Int32, output: String) {
        Self.curl(certificates, ["--http1.1"] + arguments)
    }

    /// curl trusting this CA, quiet but for errors, at most 10 s.
    static func curl(_ certificates: Certificates, _ arguments: [String]) -> (status: Int32, output: String) {
        run(["/usr/bin/curl", "--silent", "--show-error", "--max-time", "10", "--cacert", certificates.ca] + arguments)
    }

    func sClient(_ port: Int, _ certificates: Certificates, _ arguments: [String]) -> (
        status: Int32, output: String
    ) {
        Self.run(
            [
                "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.ca,
                "-verify_return_error",
            ]
                + arguments)
    }

    @Test("curl over HTTPS/1.1: a page with a Secure session cookie, a POST select with its CSRF token, keep-alive")
    func curlVisit() throws {
        let certificates = try certificates()
        let log = LogFormatTests.FileLog(format: .text)
        let server = try startServer(certificates, log: log)
        defer { server.shutdown() }
        let base = "https://127.0.0.1:\(server.port)"
        let jar = certificates.directory + "/jar-\(UUID().uuidString)"
        let page = curl(certificates, ["--include", "--cookie-jar", jar, base + "/tabs/music"])
        #expect(page.status == 0, "\(page.output)")
        #expect(page.output.hasPrefix("HTTP/1.1 200"))
        let cookieLine = page.output.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(cookieLine?.contains("; Secure") == true, "\(cookieLine ?? "no Set-Cookie")")
        let token = try #require(
            TestResponse(status: 200, headers: HTTPHeaders(), body: Array(page.output.utf8)).csrfToken)
        let select = curl(
            certificates,
            [
                "--include", "--cookie", jar, "--cookie-jar", jar, "-H", "Origin: \(base)", "--data",
                "csrf=\(token)&tab=tv", base + "/select",
            ])
        #expect(select.output.hasPrefix("HTTP/1.1 303"), "\(select.output.prefix(300))")
        #expect(select.output.contains("/tabs/tv"))
        // Two URLs on one curl: the second reuses the connection (no new connect).
        let twice = curl(
            certificates,
            [
                "--output", "/dev/null", "--output", "/dev/null", "--write-out", "%{http_code} %{num_connects}\n",
                base + "/tabs/music", base + "/healthz",
            ])
        #expect(twice.output == "200 1\n200 0\n", "\(twice.output)")
        server.shutdown()
        let lines = log.lines
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.contains(" http/1.1 TLSv1.3") }, "\(lines)")
    }

    @Test("the JSON access log names the protocol and the TLS version negotiated")
    func jsonAccessLog() throws {
        let certificates = try certificates()
        let log = LogFormatTests.FileLog(format: .json)
        let server = try startServer(certificates, log: log)
        defer { server.shutdown() }
        let url = "https://127.0.0.1:\(server.port)/healthz"
        #expect(curl(certificates, ["--output", "/dev/null", "--tlsv1.2", "--tls-max", "1.2", url]).status == 0)
        server.shutdown()
        let objects = try log.objects()
        #expect(objects.count == 1)
        #expect(objects.first?["protocol"] as? String == "http/1.1")
        #expect(objects.first?["tls"] as? String == "TLSv1.2")
    }

    @Test("static files over TLS are written from memory, whole")
    func staticFile() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        let base = "https://127.0.0.1:\(server.port)"
        let overTLS = curl(
            certificates,
            ["--write-out", "%{http_code} %{size_download}", "--output", "/dev/null", base + "/css/app.css"])
        #expect(overTLS.output.hasPrefix("200 "), "\(overTLS.output)")
        let size = Int(overTLS.output.split(separator: " ").last ?? "") ?? 0
        let onDisk = (try? FileManager.default.attributesOfItem(atPath: "Public/css/app.css")[.size] as? Int) ?? nil
        #expect(size > 0)
        if let onDisk { #expect(size == onDisk) }
    }

    @Test("a cached page goes out as one TLS record, head and body together (two were two writes)")
    func oneRecordPerPage() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        // Encrypted records the client receives for `requests` pipelined GETs of the first
        // page, which every one after the first gets from the cache (a shared body).
        func records(_ requests: Int) -> Int {
            let request = "GET /tabs/featured HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"
            let last = "GET /tabs/featured HTTP/1.1\\r\\nHost: t\\r\\nConnection: close\\r\\n\\r\\n"
            let script =
                "(i=1; while [ $i -lt \(requests) ]; do printf '\(request)'; i=$((i+1)); done; printf '\(last)') | "
                + "/usr/bin/openssl s_client -tls1_3 -msg -ign_eof -connect 127.0.0.1:\(server.port) "
                + "-CAfile \(certificates.ca) 2>&1 | grep -ac '<<< TLS 1.3, InnerContent'"
            let result = Self.run(["/bin/sh", "-c", script])
            return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        _ = records(1)  // the page rendered and kept
        let two = records(2)
        let six = records(6)
        #expect(two > 0)
        #expect(six - two == 4, "one record per cached page: \(two) records for 2 pages, \(six) for 6")
    }

    @Test("a client that reads slowly gets every byte: writes wait for the socket (WANT_WRITE) and resume")
    func slowReader() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        // Pipelined requests for a 36 KB file; the reader stops for a second while the
        // server writes (the pipe, then the socket, fill up), then reads it all.
        func received(_ requests: Int, pause: String) -> Int {
            let request = "GET /css/app.css HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"
            let last = "GET /css/app.css HTTP/1.1\\r\\nHost: t\\r\\nConnection: close\\r\\n\\r\\n"
            let script =
                "(i=1; while [ $i -lt \(requests) ]; do printf '\(request)'; i=$((i+1)); done; printf '\(last)') | "
                + "/usr/bin/openssl s_client -quiet -connect 127.0.0.1:\(server.port) -CAfile \(certificates.ca) 2>/dev/null | "
                + "(sleep \(pause); wc -c)"
            let result = Self.run(["/bin/sh", "-c", script])
            return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let one = received(1, pause: "0")  // the last answer carries `Connection: close`
        let keptAlive = received(2, pause: "0") - one
        #expect(keptAlive > 36_000)
        #expect(received(100, pause: "1") == one + 99 * keptAlive)
    }

    @Test("TLS 1.2 and 1.3 are negotiated; 1.0 and 1.1 and a weak 1.2 cipher are refused; tickets resume")
    func versionsAndCiphers() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        let port = server.port
        let v13 = sClient(port, certificates, ["-tls1_3", "-brief"])
        #expect(v13.status == 0 && v13.output.contains("Protocol version: TLSv1.3"), "\(v13.output)")
        let v12 = sClient(port, certificates, ["-tls1_2", "-brief"])
        #expect(v12.status == 0 && v12.output.contains("Protocol version: TLSv1.2"), "\(v12.output)")
        #expect(v12.output.contains("ECDHE"), "\(v12.output)")
        for old in ["-tls1", "-tls1_1"] {
            let refused = sClient(port, certificates, [old, "-cipher", "DEFAULT@SECLEVEL=0", "-brief"])
            #expect(refused.status != 0, "\(old): \(refused.output)")
        }
        for weak in ["AES128-SHA", "ECDHE-RSA-AES128-SHA", "AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-SHA256"] {
            let refused = sClient(port, certificates, ["-tls1_2", "-cipher", weak, "-brief"])
            #expect(refused.status != 0, "\(weak): \(refused.output)")
        }
        let session = certificates.directory + "/session-\(UUID().uuidString)"
        let first = sClient(port, certificates, ["-tls1_2", "-sess_out", session])
        #expect(first.output.contains("New, TLSv1.2"), "\(first.output.suffix(600))")
        let resumed = sClient(port, certificates, ["-tls1_2", "-sess_in", session])
        #expect(resumed.output.contains("Reused, TLSv1.2"), "\(resumed.output.suffix(600))")
    }

    @Test("--tls-min-version 1.3 refuses TLS 1.2")
    func minimumVersion() throws {
        let certificates = try certificates()
        let server = try startServer(certificates) { $0.http.tls?.minimumVersion = .tls13 }
        defer { server.shutdown() }
        #expect(sClient(server.port, certificates, ["-tls1_2", "-brief"]).status != 0)
        #expect(sClient(server.port, certificates, ["-tls1_3", "-brief"]).status == 0)
    }

    @Test("a handshake never finished, silent or trickled, is cut by the header deadline")
    func handshakeDeadlines() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        // Silent: connected, nothing sent.
        // Closed within the client's read timeout: by the header deadline (1 s), since the
        // idle timeout (30 s) is longer than the client waits.
        let silent = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 20))
        #expect(silent.readUntilClosed().closed)
        // Trickled: a ClientHello's first bytes, one every 200 ms.
        let trickle = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 20))
        let started = ContinuousClock.now
        for byte: UInt8 in [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x00, 0x00, 0x00] {
            if !trickle.send(bytes: [byte]) { break }
            usleep(200_000)
            if ContinuousClock.now - started > .seconds(4) { break }
        }
        #expect(trickle.readUntilClosed().closed)
        #expect(ContinuousClock.now - started > .milliseconds(800), "cut by the deadline, not the bytes")
        // And the server still serves.
        let after = curl(
            certificates,
            ["--output", "/dev/null", "--write-out", "%{http_code}", "https://127.0.0.1:\(server.port)/healthz"])
        #expect(after.output == "200", "\(after.output)")
    }

    @Test("plain HTTP sent to the TLS port is closed at once, not left to the header deadline")
    func garbageHandshake() throws {
        // A header deadline of ten minutes and a client that waits one: only the garbage
        // itself can end the connection within the wait.
        let server = try Self.startServer(try certificates(), log: nil, headerTimeout: .seconds(600)) { _ in }
        defer { server.shutdown() }
        let garbage = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 60))
        let started = ContinuousClock.now
        garbage.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        let end = garbage.readToEnd()
        #expect(end != .timedOut, "ended by the server (\(end)), not left open")
        print("TLS port: plain HTTP ended (\(end)) after \(ContinuousClock.now - started)")
        let after = curl(
            try certificates(),
            ["--output", "/dev/null", "--write-out", "%{http_code}", "https://127.0.0.1:\(server.port)/healthz"])
        #expect(after.output == "200", "\(after.output)")
    }
}

/// A responder for engine-only tests: 200 and the path.
struct EchoResponder: ImmediateResponder {
    func respond(to request: HTTPRequest) -> HTTPResponse { .text(request.path) }
}
