// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// System-call helpers for connected sockets.
enum Socket {
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
