// SPDX-License-Identifier: Apache-2.0
import CLinuxIO

#if canImport(Glibc)
    import Glibc
#endif

/// System calls on one connected socket that the loop makes outside its buffered
/// reading and writing.
enum Socket {
    /// Sends `bytes` at once without blocking (never raising SIGPIPE): what `send`
    /// returns, bytes written or -1 with `errno`. For the few bytes that go out before or
    /// instead of a queued answer (an interim `100 Continue`, a 503 to a client the loop
    /// cannot keep).
    static func sendNow(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Turns Nagle's algorithm off: an answer leaves as soon as it is written.
    static func setNoDelay(_ descriptor: Int32) {
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Shuts the sending side (the client reads the end of the answer, then end of file).
    static func shutdownWrite(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The peer's address as text ("-" if unknown).
    static func addressText(_ storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        let ok: Bool = withUnsafePointer(to: &storage) { pointer in
            text.withUnsafeMutableBufferPointer { out in
                if family == AF_INET {
                    return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                        var address = inet.pointee.sin_addr
                        return inet_ntop(AF_INET, &address, out.baseAddress, socklen_t(out.count)) != nil
                    }
                } else if family == AF_INET6 {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                        var address = inet6.pointee.sin6_addr
                        return inet_ntop(AF_INET6, &address, out.baseAddress, socklen_t(out.count)) != nil
                    }
                }
                return false
            }
        }
        guard ok else { return "-" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
