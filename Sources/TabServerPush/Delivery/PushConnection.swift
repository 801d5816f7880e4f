// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// One push message posted over HTTPS/1.1 on a connection of its own, on the sender's
/// thread: the name resolved and every address checked (`PushAddressPolicy`), a
/// connection to one that passed, the handshake, the request, then the status line of
/// the answer, reading at most `maxResponse` bytes. All of it keeps to one deadline,
/// `timeout` after the message was taken up: the name's lookup is bounded (`PushResolver`),
/// the socket is non-blocking and each wait for it gets only what is left, so a peer that
/// sends a byte now and then cannot stretch the message.
struct PushConnection {
    let tls: TLSClientContext
    let resolver: PushResolver
    let policy: PushAddressPolicy
    let timeout: Duration
    let maxResponse: Int

    /// What became of a message, and which part ran out of time, if one did.
    struct Outcome {
        enum SlowPart {
            /// The name's lookup: it says nothing of the push service's own hosts.
            case lookup
            /// The connection, the handshake, the request or the answer.
            case exchange
        }

        let result: PushDeliveryResult
        var slowPart: SlowPart? = nil
    }

    func post(_ request: PushRequest) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        let addresses: [PushResolver.Address]
        switch resolver.addresses(of: request.endpoint, by: deadline) {
        case .success(let found): addresses = found
        case .failure(let failure):
            return failure.kind == .timedOut
                ? Outcome(result: .timedOut(reason: failure.reason), slowPart: .lookup)
                : Outcome(result: .failed(reason: failure.reason))
        }
        guard let refused = addresses.first(where: { !policy.allows($0.bytes) }) else {
            let result = exchange(request, addresses: addresses, deadline: deadline)
            guard case .timedOut = result else { return Outcome(result: result) }
            return Outcome(result: result, slowPart: .exchange)
        }
        return Outcome(
            result: .refused(
                reason: "\(request.endpoint.host) resolves to \(refused.text), which is not a public address"))
    }

    /// Tries each address in turn until one connects.
    private func exchange(
        _ request: PushRequest, addresses: [PushResolver.Address], deadline: ContinuousClock.Instant
    ) -> PushDeliveryResult {
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

    struct SocketFailure: Error {
        let text: String
        /// Whether it failed because the deadline passed.
        var timedOut = false
    }

    /// A non-blocking socket connected to `address` by the deadline.
    private func connect(_ address: PushResolver.Address, deadline: ContinuousClock.Instant)
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
            var ready: Int32
            repeat {
                ready = poll(&poller, 1, Self.milliseconds(until: deadline))
            } while ready < 0 && errno == EINTR && ContinuousClock.now < deadline
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

    /// What is left until `deadline`, in milliseconds rounded up (a wait for it ends past it).
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }
}
