// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Accepting connections and the connection budget: connections are dealt out to the
/// loops in turn, counted against the budget and the per-address limit, and refused with
/// a fast 503 past them (or when the process is out of descriptors).
extension EventLoop {
    private static let acceptsPerWake = 64

    /// Accepts what is waiting (up to `acceptsPerWake`) and deals the connections out to
    /// the loops in turn: epoll wakes whichever loop it likes first, so without this a
    /// burst of connections (a proxy's pool, wrk's 64) lands on one engine thread while
    /// the other idles.
    func acceptConnections() {
        guard listening else { return }
        for _ in 0..<Self.acceptsPerWake {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    tabserver_accept_nonblocking(engine.listenDescriptor, $0, &length)
                }
            }
            if descriptor < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    // Shut down (draining) or out of descriptors: stop listening in this loop
                    // for now; EMFILE would otherwise spin.
                    if engine.draining {
                        stopListening()
                    } else if errno == EMFILE || errno == ENFILE {
                        if refuseWithSpareDescriptor() { continue }
                    }
                }
                return
            }
            let address = Socket.addressText(&storage)
            if let other = engine.nextLoop(), other !== self {
                other.adopt(descriptor, address: address)
            } else {
                admit(descriptor, address: address)
            }
        }
    }

    /// Takes a connection another loop accepted (from that loop's thread).
    func adopt(_ descriptor: Int32, address: String) {
        let first = adopted.withLock { adopted -> Bool in
            adopted.append((descriptor, address))
            return adopted.count == 1
        }
        if first { wake() }
    }

    /// Out of descriptors: frees the spare one to accept a waiting client, answers it a
    /// 503 at once and closes it, then takes the spare back. False when there is no spare
    /// (another thread took the descriptor); the level-triggered listening socket then
    /// wakes the loop again, at worst once per epoll wait.
    private func refuseWithSpareDescriptor() -> Bool {
        let now = monotonicNanos()
        if now &- lastDescriptorWarning > 1_000_000_000 {
            lastDescriptorWarning = now
            engine.errorLog.write(
                "accept(): out of file descriptors; refusing with 503 (raise ulimit -n)", level: .warn)
        }
        guard spareDescriptor >= 0 else {
            spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            return false
        }
        close(spareDescriptor)
        spareDescriptor = -1
        let descriptor = tabserver_accept_nonblocking(engine.listenDescriptor, nil, nil)
        if descriptor >= 0 {
            engine.refusedConnections.add(1, ordering: .relaxed)
            var head = ResponseHead.stable(Self.overBudgetResponse, log: nil)
            ResponseHead.finish(date: date.current(), close: true, keepAliveForHTTP10: false, into: &head)
            if case .bytes(let body) = Self.overBudgetResponse.body { head += body }
            if engine.tls == nil { _ = Socket.sendNow(descriptor, head) }  // over TLS: closed unanswered
            Socket.shutdownWrite(descriptor)
            close(descriptor)
        }
        spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 && spareDescriptor >= 0
    }

    /// The answer past the connection budget.
    private static let overBudgetResponse: HTTPResponse = {
        var response = HTTPResponse.text(
            "503 Service Unavailable: the server is at its connection limit. Please retry shortly.\n",
            status: .serviceUnavailable)
        response.headers.add("Retry-After", "2")
        return response
    }()

    /// Registers a new connection if the budget and the per-address limit allow it, and
    /// refuses it with a 503 otherwise; while draining it is closed at once.
    func admit(_ descriptor: Int32, address: String) {
        Socket.setNoDelay(descriptor)
        let now = monotonicNanos()
        if engine.draining {
            close(descriptor)
            return
        }
        // Counted only while under the budget (never over it, even for a moment, with
        // several loops admitting at once).
        var open = engine.openConnections.load(ordering: .relaxed)
        var counted = false
        while open < engine.configuration.connectionLimit {
            let (exchanged, original) = engine.openConnections.compareExchange(
                expected: open, desired: open + 1, ordering: .relaxed)
            if exchanged {
                counted = true
                break
            }
            open = original
        }
        if !counted || !engine.admit(address: address) {
            if counted { engine.openConnections.subtract(1, ordering: .relaxed) }
            engine.refusedConnections.add(1, ordering: .relaxed)
            refuse(descriptor, address: address, now: now)
            return
        }
        let connection = Connection(descriptor: descriptor, address: address, counted: true, now: now)
        connections[descriptor] = connection
        if let tls = engine.tls {
            guard let session = tls.makeSession(descriptor: descriptor) else {
                closeNow(connection, aborted: false)
                return
            }
            connection.tls = session
        }
        if !register(descriptor, events: EpollEvents.input | EpollEvents.readHangUp, tag: UInt64(descriptor)) {
            engine.recordSystemCallError("epoll_ctl(ADD) of a connection", errno: errno)
            closeNow(connection, aborted: true)
        }
    }

    /// Past the budget: a fast 503 with `Retry-After`, then a short linger and close —
    /// never a silent wait in the kernel's backlog. Refused connections are not counted,
    /// but they are few at a time and each lives at most the linger time. Over TLS a
    /// plain 503 would be noise to the client and a handshake costs what the budget
    /// saves: the connection is closed at once.
    private func refuse(_ descriptor: Int32, address: String, now: UInt64) {
        if engine.tls != nil {
            close(descriptor)
            return
        }
        let connection = Connection(descriptor: descriptor, address: address, counted: false, now: now)
        connections[descriptor] = connection
        guard register(descriptor, events: EpollEvents.input | EpollEvents.readHangUp, tag: UInt64(descriptor)) else {
            engine.recordSystemCallError("epoll_ctl(ADD) of a refused connection", errno: errno)
            closeNow(connection, aborted: true)
            return
        }
        queue(
            ResponderAnswer(Self.overBudgetResponse), on: connection, method: .get, close: true,
            keepAliveForHTTP10: false)
        flush(connection)
    }
}
