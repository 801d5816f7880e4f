// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The addresses of push services' names, each looked up within the message's deadline
/// (`tabserver_resolve_within`) and kept a minute: most messages go to a few push services
/// (FCM, autopush, Apple's), so their names are rarely asked. When a lookup fails, runs
/// out of time, or is not even tried because lookups that timed out still hold glibc's
/// threads, a name looked up within the last hour is answered with the addresses it had
/// then, so one slow name cannot stop the messages to the others.
final class PushResolver: Sendable {
    /// One address a name resolved to.
    struct Address: Sendable {
        var storage: sockaddr_storage
        var length: socklen_t
        var family: Int32
        var bytes: [UInt8]
        var text: String
    }

    /// Why a name has no addresses now.
    struct Failure: Error {
        enum Kind {
            /// The lookup ran out of the message's time.
            case timedOut
            /// Not asked: too many lookups that timed out are still running.
            case busy
            /// The name does not resolve, or has no address.
            case failed
        }

        let kind: Kind
        let reason: String
    }

    private struct Known {
        var addresses: [Address]
        var found: ContinuousClock.Instant
    }

    private let known = Mutex<[String: Known]>([:])
    /// How long a lookup's answer is used without asking again.
    static let fresh: Duration = .seconds(60)
    /// How long it is used when asking again fails.
    static let stale: Duration = .seconds(3_600)
    /// Names kept at most (the oldest answers go first).
    static let capacity = 256

    /// The addresses of `endpoint`'s host and port, asked by `deadline`.
    func addresses(of endpoint: PushEndpoint, by deadline: ContinuousClock.Instant) -> Result<[Address], Failure> {
        let key = "\(endpoint.host):\(endpoint.port)"
        let now = ContinuousClock.now
        let kept = known.withLock { $0[key] }
        if let kept, now - kept.found < Self.fresh { return .success(kept.addresses) }
        switch Self.lookUp(endpoint, by: deadline) {
        case .success(let addresses):
            known.withLock { known in
                if known[key] == nil, known.count >= Self.capacity,
                    let oldest = known.min(by: { $0.value.found < $1.value.found })
                {
                    known[oldest.key] = nil
                }
                known[key] = Known(addresses: addresses, found: now)
            }
            return .success(addresses)
        case .failure(let failure):
            if failure.kind != .failed, let kept, now - kept.found < Self.stale { return .success(kept.addresses) }
            return .failure(failure)
        }
    }

    /// Every address of the endpoint's name (or its literal loopback address, in tests).
    private static func lookUp(_ endpoint: PushEndpoint, by deadline: ContinuousClock.Instant)
        -> Result<[Address], Failure>
    {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let status = tabserver_resolve_within(
            endpoint.host, String(endpoint.port), &hints, max(1, PushConnection.milliseconds(until: deadline)), &list)
        switch status {
        case TABSERVER_RESOLVE_TIMED_OUT:
            return .failure(Failure(kind: .timedOut, reason: "\(endpoint.host) did not resolve in time"))
        case TABSERVER_RESOLVE_BUSY:
            return .failure(
                Failure(kind: .busy, reason: "\(endpoint.host) was not looked up: lookups that timed out still run"))
        default: break
        }
        guard status == 0, let list else {
            return .failure(
                Failure(
                    kind: .failed, reason: "cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var found: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ai_next }
            guard let address = entry.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            let length = entry.pointee.ai_addrlen
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
            }
            let family = entry.pointee.ai_family
            let bytes: [UInt8]
            if family == AF_INET {
                bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
            } else if family == AF_INET6 {
                bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
            } else {
                continue
            }
            found.append(
                Address(storage: storage, length: length, family: family, bytes: bytes, text: text(bytes, family)))
        }
        guard !found.isEmpty else { return .failure(Failure(kind: .failed, reason: "\(endpoint.host) has no address")) }
        return .success(found)
    }

    private static func text(_ bytes: [UInt8], _ family: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
