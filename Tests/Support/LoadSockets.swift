// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// Raw loopback sockets for load tests: many at once, non-blocking, watched with poll.
public enum LoadSockets {
    /// A non-blocking TCP socket connecting (or connected) to 127.0.0.1:`port`; -1 on failure.
    public static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 && errno != EINPROGRESS {
            close(fd)
            return -1
        }
        return fd
    }

    /// Sends all of `text` if the socket takes it now; false if it could not.
    @discardableResult
    public static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// Reads what is there; nil at end of stream or on error, [] when nothing is ready.
    public static func read(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return Array(buffer[..<count]) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
        return nil
    }

    /// This process's resident memory in bytes (VmRSS).
    public static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") {
                return (Int(text.split(separator: " ")[1]) ?? 0) * 1024
            }
        }
        return 0
    }
}
