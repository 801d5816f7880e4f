// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

/// A stand-in push service for tests (`Tests/push/push_service.py` in the package's
/// `.venv`): HTTPS on a loopback port with a certificate made for it by `openssl`, which
/// records every request it receives and answers 201, or 410 for a path ending in
/// `/gone`, 404 for `/missing`, 500 for `/broken`, nothing for `/silent`. Real push
/// services cannot be reached from the test machines; this one shows what the server
/// sent, and `check(_:)` runs the independent checks of `Tests/push/push_check.py` on it.
///
/// ```swift
/// let service = try RecordingPushService()
/// defer { service.stop() }
/// let endpoint = service.endpoint("/send/one")           // https://127.0.0.1:PORT/send/one
/// // … the server posts to it, trusting service.certificateAuthority …
/// let received = service.requests()                       // path, header fields, body
/// ```
public final class RecordingPushService: Sendable {
    /// One request the service received.
    public struct Received: Sendable {
        public let path: String
        /// Header fields, names lowercased.
        public let headers: [String: String]
        public let body: [UInt8]
    }

    /// The CA certificate that signed the service's (PEM), for the client to trust.
    public let certificateAuthority: String
    public let port: Int
    private let recordPath: String
    private let child: ChildProcess
    private let directory: String

    /// The package's virtualenv Python, when `scripts/test.sh` has made it.
    public static var python: String? {
        let path = FileManager.default.currentDirectoryPath + "/.venv/bin/python"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Makes a CA and a certificate for 127.0.0.1 and starts the service (it stops by
    /// itself after `seconds`). Throws when `.venv`, `openssl` or the service is missing.
    public init(seconds: Int = 120) throws {
        guard let python = Self.python else {
            throw TestSupportError("no .venv/bin/python: scripts/test.sh makes it (Tests/push/requirements.txt)")
        }
        directory = TestFixtures.temporaryDirectory("tabserver-push")
        certificateAuthority = directory + "/ca.pem"
        recordPath = directory + "/requests.jsonl"
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", directory + "/ca.key", "-out", certificateAuthority, "-subj", "/CN=Push Test CA",
                "-days", "2",
            ])
        try Self.openssl(
            ["req"] + ec + ["-keyout", directory + "/leaf.key", "-out", directory + "/leaf.csr", "-subj", "/CN=push"])
        TestFixtures.write("subjectAltName=IP:127.0.0.1\n", to: directory + "/san.ext")
        try Self.openssl([
            "x509", "-req", "-in", directory + "/leaf.csr", "-CA", certificateAuthority, "-CAkey",
            directory + "/ca.key", "-CAcreateserial", "-days", "2", "-extfile", directory + "/san.ext", "-out",
            directory + "/leaf.pem",
        ])
        let script = FileManager.default.currentDirectoryPath + "/Tests/push/push_service.py"
        child = try ChildProcess(
            [
                python, script, "--cert", directory + "/leaf.pem", "--key", directory + "/leaf.key", "--record",
                recordPath, "--seconds", String(seconds),
            ], standardOutput: .pipe)
        let line = child.readOutput(within: .seconds(20))
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
            _ = child.stop()
            throw TestSupportError("the push service did not start: \(line)")
        }
        self.port = port
    }

    /// `https://127.0.0.1:PORT` + `path`.
    public func endpoint(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Every request received so far, in order.
    public func requests() -> [Received] {
        guard let text = try? String(contentsOfFile: recordPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let headers = object["headers"] as? [String: String],
                let body = object["body"] as? String
            else { return nil }
            var base64 = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Received(path: path, headers: headers, body: Array(Data(base64Encoded: base64) ?? Data()))
        }
    }

    /// Runs `Tests/push/push_check.py` with `arguments`: its exit status and output.
    public static func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let python = python else { throw TestSupportError("no .venv/bin/python") }
        let script = FileManager.default.currentDirectoryPath + "/Tests/push/push_check.py"
        let child = try ChildProcess([python, script] + arguments, standardOutput: .pipe)
        let output = child.readAllOutput()
        guard case .exited(let status)? = child.waitForExit(.seconds(30)) else {
            _ = child.stop(SIGKILL)
            return (-1, output)
        }
        return (status, output)
    }

    /// Stops the service (by its pid) and removes its files.
    public func stop() {
        _ = child.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func openssl(_ arguments: [String]) throws {
        let child = try ChildProcess(["/usr/bin/openssl"] + arguments, standardError: .discard)
        guard child.waitForExit(.seconds(30)) == .exited(0) else {
            _ = child.stop(SIGKILL)
            throw TestSupportError("openssl \(arguments.first ?? "") failed")
        }
    }
}
