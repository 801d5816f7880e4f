// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A peer on loopback that takes connections and sends each one byte at a time, one every
/// `interval`, never finishing what it sends: a TLS record header announcing 16 KB, then
/// its bytes. What a slow (or hostile) push service looks like to a client that waits per
/// read: always about to answer. It stops by itself after `lifetime`, and counts the
/// connections it took and those the client closed.
public final class DripPeer: Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let counts = Mutex((accepted: 0, closedByClient: 0))
    private let stopped = Atomic<Bool>(false)

    public init(interval: Duration = .milliseconds(100), lifetime: Duration = .seconds(30)) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw TestSupportError("the drip peer could not listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let ends = ContinuousClock.now + lifetime
        let thread = Thread { [self] in self.serve(interval: interval, until: ends) }
        thread.name = "drip peer"
        thread.start()
    }

    /// Connections taken so far.
    public var accepted: Int { counts.withLock { $0.accepted } }
    /// Connections whose client went away while bytes were still dripping.
    public var closedByClient: Int { counts.withLock { $0.closedByClient } }

    /// Stops dripping (at the latest after one more interval).
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private func serve(interval: Duration, until ends: ContinuousClock.Instant) {
        defer { close(listener) }
        var clients: [Int32] = []
        // The header of a handshake record of 16 KB, then its body, one byte at a time.
        let drip: [UInt8] = [0x16, 0x03, 0x03, 0x40, 0x00] + Array(repeating: 0x01, count: 16_384)
        var sent: [Int32: Int] = [:]
        let pace = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        var next = ContinuousClock.now
        while ContinuousClock.now < ends && !stopped.load(ordering: .relaxed) {
            // Wait for a connection, a client's bytes or its end, or the next drip.
            var pollers = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            pollers += clients.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = next - ContinuousClock.now
            let wait = max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            _ = poll(&pollers, nfds_t(pollers.count), Int32(min(Int64(pace), wait)))
            if pollers[0].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    clients.append(client)
                    counts.withLock { $0.accepted += 1 }
                }
            }
            for poller in pollers.dropFirst() where poller.revents != 0 {
                var scratch = [UInt8](repeating: 0, count: 4096)
                if recv(poller.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) <= 0 { hangUp(poller.fd, &clients) }
            }
            guard ContinuousClock.now >= next else { continue }
            next = ContinuousClock.now + interval
            for client in clients {
                let index = sent[client, default: 0]
                guard index < drip.count else { continue }
                let wrote = drip[index..<index + 1].withUnsafeBytes {
                    send(client, $0.baseAddress, 1, Int32(MSG_NOSIGNAL))
                }
                if wrote == 1 { sent[client] = index + 1 } else { hangUp(client, &clients) }
            }
        }
        for client in clients { close(client) }
    }

    private func hangUp(_ client: Int32, _ clients: inout [Int32]) {
        guard clients.contains(client) else { return }
        close(client)
        clients.removeAll { $0 == client }
        counts.withLock { $0.closedByClient += 1 }
    }
}
