// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

/// A real nginx on a free loopback port with a generated configuration, for proxy tests.
/// It runs in the foreground of its own process (`daemon off`) and is stopped by pid.
public final class NginxServer {
    public let port: Int
    public let directory: String
    private let process: ChildProcess

    /// Starts nginx with `locations` inside its `server` block and `upstreams` (whole
    /// `upstream` blocks) beside it. The port is chosen here and can be read back.
    public init(upstreams: String = "", locations: String) throws {
        directory = TestFixtures.temporaryDirectory("nginx")
        port = try freeLoopbackPort()
        let configuration = """
            user root;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log warn;
            daemon off;
            events { worker_connections 256; }
            http {
              access_log \(directory)/access.log;
              client_body_temp_path \(directory)/body;
              proxy_temp_path \(directory)/proxy;
              fastcgi_temp_path \(directory)/fastcgi;
              uwsgi_temp_path \(directory)/uwsgi;
              scgi_temp_path \(directory)/scgi;
              \(upstreams)
              server {
                listen 127.0.0.1:\(port);
                server_name shop.test;
                \(locations)
              }
            }
            """
        try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        process = try ChildProcess([Self.binary, "-c", directory + "/nginx.conf", "-p", directory])
        if waitUntil(.seconds(5), every: .milliseconds(20), { RawHTTPConnection(port: port, timeoutSeconds: 1) != nil })
        {
            return
        }
        stop()
        let log = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
        throw TestSupportError("nginx did not start: \(log)")
    }

    deinit { stop() }

    /// Where nginx is installed (Debian's nginx-light or nginx).
    public static var binary: String {
        ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/usr/sbin/nginx"
    }

    /// Whether nginx is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// Stops nginx (SIGQUIT: finish requests, then exit) and waits.
    public func stop() {
        process.stop(SIGQUIT)
    }
}

/// A failure of the test harness itself.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A port that was free a moment ago on 127.0.0.1.
public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw TestSupportError("bind() failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
