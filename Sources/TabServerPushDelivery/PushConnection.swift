// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerTLS
import TabServerWebPush

#if canImport(Glibc)
    import Glibc
#endif

/// One push message posted over HTTPS/1.1 on a connection of its own, on the sender's
/// thread: the name resolved and every address checked (`PushAddressPolicy`), a
/// connection to one that passed, the handshake, the request, then the status line of
/// the answer, reading at most `maxResponse` bytes. All of it keeps to one deadline,
/// `timeout` after the message was taken up: the name's lookup is bounded
/// (`tabserver_resolve_within`), the socket is non-blocking and each wait for it gets only
/// what is left, so a peer that sends a byte now and then cannot stretch the message.
struct PushConnection {
    let tls: TLSClientContext
    let policy: PushAddressPolicy
    let timeout: Duration
    let maxResponse: Int

    func post(_ request: PushRequest) -> PushDeliveryResult {
        let deadline = ContinuousClock.now + timeout
        let addresses: [ResolvedAddress]
        switch resolve(request.endpoint, deadline: deadline) {
        case .success(let found): addresses = found
        case .failure(let failure):
            return failure.timedOut ? .timedOut(reason: failure.text) : .failed(reason: failure.text)
        }
        guard let refused = addresses.first(where: { !policy.allows($0.bytes) }) else {
            return exchange(request, addresses: addresses, deadline: deadline)
        }
        return .refused(
            reason: "\(request.endpoint.host) resolves to \(refused.text), which is not a public address")
    }

    /// Tries each address in turn until one connects.
    private func exchange(_ request: PushRequest, addresses: [ResolvedAddress], deadline: ContinuousClock.Instant)
        -> PushDeliveryResult
    {
        var lastFailure = SocketFailure(text: "no address")
        for address in addresses {
            guard ContinuousClock.now < deadline else {
                lastFailure = SocketFailure(text: "no time left", timedOut: true)
                break
            }
            switch connect(address, deadline: deadline) {
            case .failure(let failure):
                lastFailure = failure
                continue
            case .success(let descriptor):
                defer { close(descriptor) }
                return send(request, on: descriptor, deadline: deadline)
            }
        }
        let reason = "could not connect to \(request.endpoint.host): \(lastFailure.text)"
        return lastFailure.timedOut ? .timedOut(reason: reason) : .failed(reason: reason)
    }

    private func send(_ request: PushRequest, on descriptor: Int32, deadline: ContinuousClock.Instant)
        -> PushDeliveryResult
    {
        do throws(TLSError) {
            let session = try tls.connect(descriptor: descriptor, host: request.endpoint.host, deadline: deadline)
            defer { session.close() }
            try session.write(Self.head(of: request) + request.body)
            var answer: [UInt8] = []
            while !answer.contains(0x0A) {
                let chunk = try session.read(upTo: min(4096, maxResponse - answer.count))
                if chunk.isEmpty { break }
                answer += chunk
                if answer.count >= maxResponse { break }
            }
            guard let status = Self.status(of: answer) else {
                return .failed(reason: "the push service's answer has no HTTP status line")
            }
            switch status {
            case 200...299: return .delivered(status: status)
            case 404, 410: return .gone(status: status)
            default: return .rejected(status: status)
            }
        } catch {
            return error.timedOut ? .timedOut(reason: error.reason) : .failed(reason: error.reason)
        }
    }

    /// The request's head: the target, `Host`, the message's fields, its length.
    static func head(of request: PushRequest) -> [UInt8] {
        let endpoint = request.endpoint
        var head = "POST \(endpoint.target) HTTP/1.1\r\n"
        head += "Host: \(endpoint.port == 443 ? endpoint.host : "\(endpoint.host):\(endpoint.port)")\r\n"
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// The status code of `HTTP/1.x NNN …`.
    static func status(of answer: [UInt8]) -> Int? {
        let line = answer.prefix { $0 != 0x0D && $0 != 0x0A }
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3,
            let code = Int(parts[1]), (100...599).contains(code)
        else { return nil }
        return code
    }

    // MARK: Sockets

    struct ResolvedAddress {
        var storage: sockaddr_storage
        var length: socklen_t
        var family: Int32
        var bytes: [UInt8]
        var text: String
    }

    struct SocketFailure: Error {
        let text: String
        /// Whether it failed because the deadline passed.
        var timedOut = false
    }

    /// Every address of the endpoint's name (or its literal loopback address, in tests),
    /// looked up by `deadline`.
    private func resolve(_ endpoint: PushEndpoint, deadline: ContinuousClock.Instant)
        -> Result<[ResolvedAddress], SocketFailure>
    {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let status = tabserver_resolve_within(
            endpoint.host, String(endpoint.port), &hints, max(1, Self.milliseconds(until: deadline)), &list)
        if status == TABSERVER_RESOLVE_TIMED_OUT {
            return .failure(SocketFailure(text: "\(endpoint.host) did not resolve in time", timedOut: true))
        }
        guard status == 0, let list else {
            return .failure(
                SocketFailure(text: "cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var found: [ResolvedAddress] = []
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
                ResolvedAddress(
                    storage: storage, length: length, family: family, bytes: bytes, text: Self.text(bytes, family)))
        }
        guard !found.isEmpty else { return .failure(SocketFailure(text: "\(endpoint.host) has no address")) }
        return .success(found)
    }

    private static func text(_ bytes: [UInt8], _ family: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A non-blocking socket connected to `address` by the deadline.
    private func connect(_ address: ResolvedAddress, deadline: ContinuousClock.Instant)
        -> Result<Int32, SocketFailure>
    {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(SocketFailure(text: String(cString: strerror(errno)))) }
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var storage = address.storage
        let started = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
        }
        if started != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure(SocketFailure(text: reason))
        }
        if started != 0 {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Self.milliseconds(until: deadline))
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard ready == 1, error == 0 else {
                close(descriptor)
                return .failure(
                    ready == 1
                        ? SocketFailure(text: String(cString: strerror(error)))
                        : SocketFailure(text: "connect timed out", timedOut: true))
            }
        }
        // The socket stays non-blocking: the TLS session waits for it within the deadline.
        return .success(descriptor)
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
