// SPDX-License-Identifier: Apache-2.0
import CLinuxIO

#if canImport(Glibc)
    import Glibc
#endif

/// A bound, listening, non-blocking TCP socket that every event loop accepts from; the
/// server controls the address family and `SO_REUSEADDR`, and reads the bound port back.
struct ListenSocket {
    let descriptor: Int32
    let port: Int

    init(host: String, port: Int, backlog: Int32 = 511) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError("port \(port) is out of range 0–65535") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &result)
        guard lookup == 0, let info = result else {
            throw HTTPServerError("cannot resolve host '\(host)': \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(result) }

        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("socket(): \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HTTPServerError("cannot bind \(host):\(port): \(message)")
        }
        // Non-blocking: every event loop accepts until EAGAIN, and must never wait in accept.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        guard listen(fd, backlog) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HTTPServerError("listen() on \(host):\(port): \(message)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0 else {
            close(fd)
            throw HTTPServerError("getsockname(): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        self.port = Self.port(of: &storage)
    }

    private static func port(of storage: inout sockaddr_storage) -> Int {
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
}
