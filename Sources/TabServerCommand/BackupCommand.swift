// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServer

#if canImport(Glibc)
    import Glibc
#endif

/// `tabserver backup DEST [--option value]...`: asks the server running with the same
/// options (`--host`, `--port`, `--sessions`) to copy its SQLite store to DEST while it
/// keeps serving. The store's file is locked by the server, so the server makes the copy
/// (`POST /admin/backup` over loopback, with the token it wrote beside the store).
struct BackupCommand {
    /// Runs the command; returns the exit status (0: the copy is written).
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        guard let destination = arguments.first, !destination.hasPrefix("-") else {
            return fail("usage: tabserver backup DEST [--host H] [--port P] [--sessions sqlite:PATH]", status: 2)
        }
        let configuration: AppConfiguration
        do {
            guard
                case .run(let parsed) = try AppConfiguration.parse(
                    arguments: Array(arguments.dropFirst()), environment: environment)
            else { return fail("usage: tabserver backup DEST [--option value]...", status: 2) }
            configuration = parsed
        } catch {
            return fail("tabserver backup: \(error)", status: 2)
        }
        guard case .sqlite(let storePath, _) = configuration.sessions else {
            return fail("tabserver backup: only a SQLite store is backed up (--sessions \(configuration.sessions))")
        }
        let tokenPath = storePath + ".admin-token"
        guard let token = try? String(contentsOfFile: tokenPath, encoding: .utf8), !token.isEmpty else {
            return fail(
                "tabserver backup: cannot read \(tokenPath): is the server running with --sessions sqlite:\(storePath)?"
            )
        }
        let absolute =
            destination.hasPrefix("/") ? destination : FileManager.default.currentDirectoryPath + "/" + destination
        let host = ["0.0.0.0", "::", ""].contains(configuration.http.host) ? "127.0.0.1" : configuration.http.host
        let request =
            "POST /admin/backup?to=\(URLEncoding.encodeComponent(absolute)) HTTP/1.1\r\nHost: \(host)\r\n"
            + "Authorization: Bearer \(token)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        guard let answer = exchange(request, host: host, port: configuration.http.port) else {
            return fail("tabserver backup: no answer from \(host):\(configuration.http.port)")
        }
        let head = answer.prefix { $0 != "\r\n" }
        let body = answer.firstRange(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        let succeeded = head.hasPrefix("HTTP/1.1 200")
        let text = body.hasSuffix("\n") ? String(body.dropLast()) : body
        if succeeded {
            print(text)
            return 0
        }
        return fail("tabserver backup: \(head): \(text)")
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Int32 {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        return status
    }

    /// Sends `request` to `host:port` and reads the answer until the server closes.
    private static func exchange(_ request: String, host: String, port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return nil }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return nil }
            sent += count
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += chunk[..<count]
        }
        return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    }
}
