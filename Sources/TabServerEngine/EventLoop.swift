// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import CPicoHTTPParser
import Synchronization
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// One engine thread: an epoll loop that accepts from the shared listening socket
/// (`EPOLLEXCLUSIVE`, so one loop wakes per connection), reads and parses requests,
/// calls the responder synchronously, writes answers without blocking, and enforces
/// every deadline on a 100 ms sweep.
///
/// `@unchecked Sendable` is safe: after `start`, every stored property except the wake
/// pipe's write end is touched only by the loop's own thread; `wake()` only writes one
/// byte to that pipe, which the kernel synchronizes.
final class EventLoop: @unchecked Sendable {
    private let engine: Engine
    private let epoll: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var connections: [Int32: Connection] = [:]
    private var listening = true
    private var date = HTTPDate()
    private var thread = pthread_t()
    private let fields: UnsafeMutablePointer<phr_header>
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var nextSweep: UInt64 = 0
    /// Connections whose stream has bytes (or ended), named by other threads; the loop
    /// takes the list when woken.
    private let readyStreams = Mutex<[Int32]>([])
    /// Connections other loops accepted for this one, not yet registered.
    private let adopted = Mutex<[(descriptor: Int32, address: String)]>([])

    private static let listenTag = UInt64.max
    private static let wakeTag = UInt64.max - 1
    /// Lingering closes at most this long, and read at most this much.
    private static let lingerNanos: UInt64 = 2_000_000_000
    private static let sweepNanos: UInt64 = 100_000_000
    private static let acceptsPerWake = 64
    /// Buffers an idle connection keeps between requests; larger ones are freed, so
    /// 10,000 kept-alive connections do not each hold their largest page or body.
    private static let retainedBufferBytes = 16 * 1024
    /// A descriptor held in reserve: when accept fails for lack of descriptors, it is
    /// closed to accept one waiting client, answer it 503 and close it, so the backlog
    /// drains with answers instead of the loop spinning on a listening socket it cannot
    /// serve.
    private var spareDescriptor: Int32 = -1
    private var lastDescriptorWarning: UInt64 = 0

    init(engine: Engine) throws(HTTPServerError) {
        self.engine = engine
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw HTTPServerError("epoll_create1(): \(String(cString: strerror(errno)))") }
        var pipeEnds: [Int32] = [0, 0]
        guard tabserver_pipe_nonblocking(&pipeEnds) == 0 else {
            close(epoll)
            throw HTTPServerError("pipe2(): \(String(cString: strerror(errno)))")
        }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        fields = .allocate(capacity: RequestHead.maximumFields + 1)
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard register(wakeRead, events: EpollEvents.input, tag: Self.wakeTag),
            register(engine.listenDescriptor, events: EpollEvents.input | EpollEvents.exclusive, tag: Self.listenTag)
        else {
            throw HTTPServerError("epoll_ctl(): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if spareDescriptor >= 0 { close(spareDescriptor) }
        close(epoll)
        close(wakeRead)
        close(wakeWrite)
        fields.deallocate()
        readBuffer.deallocate()
    }

    /// Starts the loop's thread.
    func start() throws(HTTPServerError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<EventLoop>.fromOpaque(context).release()
            throw HTTPServerError("cannot start an engine thread: \(String(cString: strerror(result)))")
        }
    }

    /// Makes the loop look at the engine's flags now (draining, stopping).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits for the loop's thread to end (after `stopping` was set and `wake()` called).
    func join() {
        pthread_join(thread, nil)
    }

    // MARK: The loop

    private func run() {
        var scratch = [epoll_event](repeating: epoll_event(), count: 256)
        var events = [tabserver_epoll_ready](repeating: tabserver_epoll_ready(), count: 256)
        while true {
            let count = tabserver_epoll_wait(epoll, &scratch, &events, Int32(events.count), 100)
            if engine.stopping.load(ordering: .relaxed) { break }
            if count > 0 {
                for index in 0..<Int(count) {
                    let event = events[index]
                    switch event.tag {
                    case Self.listenTag: acceptConnections()
                    case Self.wakeTag: drainWakePipe()
                    default:
                        guard let connection = connections[Int32(truncatingIfNeeded: event.tag)] else { continue }
                        handle(connection, events: event.events)
                    }
                }
            }
            let now = monotonicNanos()
            if now >= nextSweep {
                nextSweep = now + Self.sweepNanos
                sweep(now: now)
            }
        }
        for connection in Array(connections.values) { closeNow(connection, aborted: true) }
        let unadmitted = adopted.withLock { $0.map(\.descriptor) }
        for descriptor in unadmitted { close(descriptor) }
    }

    private func drainWakePipe() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &scratch, scratch.count) > 0 {}
        let arrivals = adopted.withLock { adopted -> [(descriptor: Int32, address: String)] in
            defer { adopted = [] }
            return adopted
        }
        for arrival in arrivals { admit(arrival.descriptor, address: arrival.address) }
        for descriptor in readyStreams.withLock({ ready in
            defer { ready = [] }
            return ready
        }) {
            guard let connection = connections[descriptor] else { continue }
            if connection.deferred != nil {
                resume(connection)
            } else {
                pump(connection)
            }
        }
        if engine.draining.load(ordering: .relaxed) { sweep(now: monotonicNanos()) }
    }

    // MARK: Streams

    /// Called from any thread when a stream or a deferred answer of `descriptor` has
    /// something for the loop. Only the first of a burst writes to the wake pipe: a group
    /// of answers completed together costs one wake-up.
    private func streamReady(_ descriptor: Int32) {
        let first = readyStreams.withLock { ready -> Bool in
            ready.append(descriptor)
            return ready.count == 1
        }
        if first { wake() }
    }

    /// Sends a deferred answer that has arrived, then serves pipelined requests.
    private func resume(_ connection: Connection) {
        guard let deferred = connection.deferred, let response = deferred.take() else { return }
        connection.deferred = nil
        setInterest(connection, .input)
        queue(
            response, on: connection, method: connection.head?.method ?? .get, close: connection.deferredClose,
            keepAliveForHTTP10: connection.deferredKeepAliveForHTTP10)
        flush(connection)
        guard connections[connection.descriptor] === connection else { return }
        if case .idle = connection.phase, !connection.input.isEmpty { process(connection, now: monotonicNanos()) }
    }

    /// Moves what the app wrote into the connection's output and sends it; closes the
    /// connection when the stream has ended and everything is sent.
    private func pump(_ connection: Connection) {
        guard let stream = connection.stream else { return }
        let (bytes, closed) = stream.take()
        if !bytes.isEmpty {
            if !connection.hasPendingOutput {
                connection.output.removeAll(keepingCapacity: true)
                connection.outputSent = 0
                let now = monotonicNanos()
                connection.writeDeadline = now + engine.sendTimeoutNanos
                connection.phase = .responding(since: now)
            }
            connection.output.append(contentsOf: bytes)
            connection.logBytes += bytes.count
            flush(connection)
        }
        if closed, connections[connection.descriptor] === connection, !connection.hasPendingOutput {
            connection.stream = nil
            finishRequest(connection, aborted: false)
            linger(connection)
        }
    }

    // MARK: Accepting

    /// Accepts what is waiting (up to `acceptsPerWake`) and deals the connections out to
    /// the loops in turn: epoll wakes whichever loop it likes first, so without this a
    /// burst of connections (a proxy's pool, wrk's 64) lands on one engine thread while
    /// the other idles.
    private func acceptConnections() {
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
                    if engine.draining.load(ordering: .relaxed) {
                        listening = false
                        if !register(
                            engine.listenDescriptor, events: 0, tag: Self.listenTag, operation: Int32(EPOLL_CTL_DEL))
                        {
                            engine.recordSystemCallError("epoll_ctl(DEL) of the listening socket", errno: errno)
                        }
                    } else if errno == EMFILE || errno == ENFILE {
                        if refuseWithSpareDescriptor() { continue }
                    }
                }
                return
            }
            let address = Self.addressText(&storage)
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
                "tabserver: accept(): out of file descriptors; refusing with 503 (raise ulimit -n)", level: .warn)
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
            _ = head.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            shutdown(descriptor, Int32(SHUT_WR))
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

    private func admit(_ descriptor: Int32, address: String) {
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let now = monotonicNanos()
        if engine.draining.load(ordering: .relaxed) {
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
        if !register(descriptor, events: EpollEvents.input | EpollEvents.readHangUp, tag: UInt64(descriptor)) {
            engine.recordSystemCallError("epoll_ctl(ADD) of a connection", errno: errno)
            closeNow(connection, aborted: true)
        }
    }

    /// Past the budget: a fast 503 with `Retry-After`, then a short linger and close —
    /// never a silent wait in the kernel's backlog. Refused connections are not counted,
    /// but they are few at a time and each lives at most the linger time.
    private func refuse(_ descriptor: Int32, address: String, now: UInt64) {
        let connection = Connection(descriptor: descriptor, address: address, counted: false, now: now)
        connections[descriptor] = connection
        guard register(descriptor, events: EpollEvents.input | EpollEvents.readHangUp, tag: UInt64(descriptor)) else {
            engine.recordSystemCallError("epoll_ctl(ADD) of a refused connection", errno: errno)
            closeNow(connection, aborted: true)
            return
        }
        connection.requestStart = now
        queue(Self.overBudgetResponse, on: connection, method: .get, close: true, keepAliveForHTTP10: false)
        flush(connection)
    }

    // MARK: Reading

    private func handle(_ connection: Connection, events: UInt32) {
        if events & (EpollEvents.error | EpollEvents.hangUp) != 0 && events & EpollEvents.input == 0 {
            closeNow(connection, aborted: connection.inFlight)
            return
        }
        if events & EpollEvents.output != 0 {
            flush(connection)
            guard connections[connection.descriptor] === connection else { return }
            if case .idle = connection.phase, !connection.input.isEmpty { process(connection, now: monotonicNanos()) }
            return
        }
        if events & (EpollEvents.input | EpollEvents.readHangUp) != 0 {
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        if case .responding = connection.phase { return }
        let received = read(connection.descriptor, readBuffer.baseAddress, readBuffer.count)
        if received < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            closeNow(connection, aborted: connection.inFlight)
            return
        }
        if received == 0, case .waiting = connection.phase {
            // The client sent its request and closed its side: it still gets the answer.
            connection.deferredClose = true
            setInterest(connection, .none)
            return
        }
        if received == 0 {
            // The client closed its side: nothing more will come.
            closeNow(connection, aborted: connection.inFlight)
            return
        }
        if case .lingering = connection.phase { return }  // discard
        if case .streaming = connection.phase { return }  // a stream's client says nothing
        if case .waiting = connection.phase {
            // Pipelined bytes behind a pending answer wait for it; past the memory allowed
            // a connection, reading pauses until the answer is sent.
            connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
            if connection.input.count >= engine.configuration.memoryPerConnection { setInterest(connection, .none) }
            return
        }
        let now = monotonicNanos()
        if case .idle = connection.phase { connection.phase = .head(since: now) }
        connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
        process(connection, now: now)
    }

    /// Serves every complete request in the input, one at a time.
    private func process(_ connection: Connection, now: UInt64) {
        while connections[connection.descriptor] === connection {
            switch connection.phase {
            case .idle:
                guard !connection.input.isEmpty else { return }
                connection.phase = .head(since: now)
            case .head:
                guard readHead(connection, now: now) else { return }
            case .body:
                guard readBody(connection) else { return }
                dispatch(connection)
            case .waiting, .responding, .lingering, .streaming:
                return
            }
        }
    }

    /// Parses the head; false while it is incomplete (or the request was refused).
    private func readHead(_ connection: Connection, now: UInt64) -> Bool {
        // RFC 9112 §2.2: empty lines before a request line are ignored (some clients send
        // a CRLF after a POST body).
        if connection.scanned == 0 {
            let blank = connection.input.prefix { $0 == 13 || $0 == 10 }.count
            if blank > 0 {
                connection.input.removeFirst(blank)
                if connection.input.isEmpty { return false }
            }
        }
        let outcome = connection.input.withUnsafeBytes { bytes in
            RequestHead.parse(
                bytes, previousLength: connection.scanned,
                maximumLength: engine.configuration.memoryPerConnection, fields: fields)
        }
        switch outcome {
        case .incomplete:
            connection.scanned = connection.input.count
            return false
        case .rejected(let rejection):
            beginRequest(connection, head: nil, now: now)
            connection.logMethod = rejection.method
            connection.logTarget = rejection.target
            reject(connection, rejection)
            return false
        case .complete(let head, let length):
            connection.input.removeFirst(length)
            connection.scanned = 0
            beginRequest(connection, head: head, now: now)
            if let rejection = checkBody(of: head) {
                reject(connection, rejection)
                return false
            }
            if head.framing == .none {
                dispatch(connection)
                return true
            }
            if head.framing == .chunked { connection.chunked = ChunkedDecoder() }
            if head.expectsContinue {
                // Nothing else is queued yet, so the 17 bytes fit the empty socket buffer; a
                // short or failed send would leave the client waiting or misframe the answer.
                let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                let sent = interim.withUnsafeBytes {
                    send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if sent != interim.count {
                    let code = sent < 0 ? errno : EAGAIN
                    // A peer that is gone is no engine error; anything else is.
                    if code != EPIPE && code != ECONNRESET {
                        engine.recordSystemCallError("send(100 Continue)", errno: code)
                    }
                    closeNow(connection, aborted: true)
                    return false
                }
            }
            connection.phase = .body(since: now)
            return true
        }
    }

    /// What the head alone says about its body: refused before a byte of it is read.
    private func checkBody(of head: RequestHead) -> EngineRejection? {
        guard head.framing != .none else { return nil }
        if !head.method.allowsBody {
            return EngineRejection(status: .badRequest, message: "A \(head.method) request cannot carry a body here.")
        }
        if case .length(let length) = head.framing, length > engine.configuration.maxBodySize {
            return EngineRejection(
                status: .contentTooLarge,
                message: "The request body is larger than \(engine.configuration.maxBodySize) bytes.")
        }
        return nil
    }

    /// Moves body bytes from the input; true once the body is complete.
    private func readBody(_ connection: Connection) -> Bool {
        guard let head = connection.head else { return false }
        let limit = engine.configuration.maxBodySize
        do {
            switch head.framing {
            case .none:
                return true
            case .length(let length):
                let take = min(length - connection.body.count, connection.input.count)
                connection.body.append(contentsOf: connection.input[0..<take])
                connection.input.removeFirst(take)
                return connection.body.count == length
            case .chunked:
                var decoder = connection.chunked ?? ChunkedDecoder()
                var body = connection.body
                connection.body = []
                let consumed = try Self.decode(connection.input, with: &decoder, into: &body)
                connection.body = body
                connection.chunked = decoder
                connection.input.removeFirst(consumed)
                if connection.body.count > limit {
                    throw EngineRejection(
                        status: .contentTooLarge, message: "The request body is larger than \(limit) bytes.")
                }
                return decoder.isDone
            }
        } catch let rejection as EngineRejection {
            reject(connection, rejection)
            return false
        } catch {
            return false
        }
    }

    private static func decode(_ input: [UInt8], with decoder: inout ChunkedDecoder, into body: inout [UInt8])
        throws(EngineRejection) -> Int
    {
        var result: Result<Int, EngineRejection> = .success(0)
        input.withUnsafeBytes { bytes in
            do throws(EngineRejection) {
                result = .success(try decoder.decode(bytes, into: &body))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Answering

    private func beginRequest(_ connection: Connection, head: RequestHead?, now: UInt64) {
        connection.head = head
        connection.logMethod = head?.method.description
        connection.logTarget = head?.target
        connection.body.removeAll(keepingCapacity: true)
        connection.chunked = nil
        connection.requestStart = now
        connection.inFlight = true
        engine.inFlight.add(1, ordering: .relaxed)
    }

    /// Calls the responder for the complete request and queues its answer.
    private func dispatch(_ connection: Connection) {
        guard let head = connection.head else { return }
        let request = HTTPRequest(
            method: head.method, path: head.path, query: head.query, headers: head.headers, body: connection.body,
            remoteAddress: connection.address, version: head.version)
        let answer = engine.responder.answer(request)
        let close = !head.keepAlive || engine.draining.load(ordering: .relaxed)
        let http10KeepAlive = head.version == "HTTP/1.0" && head.keepAlive
        switch answer {
        case .now(let response):
            queue(response, on: connection, method: head.method, close: close, keepAliveForHTTP10: http10KeepAlive)
            flush(connection)
        case .later(let deferred):
            // The loop serves other connections meanwhile; `resume` sends the answer.
            connection.deferred = deferred
            connection.deferredClose = close
            connection.deferredKeepAliveForHTTP10 = http10KeepAlive
            connection.phase = .waiting(since: monotonicNanos())
            let descriptor = connection.descriptor
            deferred.attach { [weak self] in self?.streamReady(descriptor) }
        }
    }

    /// Answers a request the engine refuses itself, then closes (after a linger).
    private func reject(_ connection: Connection, _ rejection: EngineRejection) {
        let response = HTTPResponse.text("\(rejection.status): \(rejection.message)\n", status: rejection.status)
        queue(
            response, on: connection, method: connection.head?.method ?? .get, close: true, keepAliveForHTTP10: false)
        flush(connection)
    }

    private func queue(
        _ response: HTTPResponse, on connection: Connection, method: HTTPMethod, close: Bool, keepAliveForHTTP10: Bool
    ) {
        connection.output.removeAll(keepingCapacity: true)
        connection.outputSent = 0
        var bodyFile: MemoryFile?
        if let cache = response.cache,
            let entry = cache.entry(orMake: { ResponseCache.Entry(prepare(response)) }),
            let prepared = entry.object as? PreparedHead
        {
            connection.output.append(contentsOf: prepared.bytes)
            bodyFile = prepared.bodyFile
        } else {
            connection.output.append(contentsOf: ResponseHead.stable(response, log: engine.errorLog))
        }
        var streamed = false
        if case .stream = response.body { streamed = true }
        ResponseHead.finish(
            date: date.current(), close: close || streamed, keepAliveForHTTP10: keepAliveForHTTP10,
            into: &connection.output)
        let sendsBody = method != .head && ResponseHead.hasBody(response.status)
        connection.sharedBody = nil
        connection.sharedSent = 0
        connection.fileBody = nil
        connection.fileSent = 0
        if sendsBody {
            switch response.body {
            case .empty: break
            case .bytes(let bytes): connection.output.append(contentsOf: bytes)
            case .shared(let shared):
                if let bodyFile { connection.fileBody = bodyFile } else { connection.sharedBody = shared }
            case .stream(let stream): connection.stream = stream
            }
        }
        var close = close
        if let stream = connection.stream {
            // Delimited by the end of the connection; the loop sends what the app writes.
            close = true
            let descriptor = connection.descriptor
            stream.attach { [weak self] in self?.streamReady(descriptor) }
        }
        connection.closeAfterWrite = close
        connection.logStatus = response.status.code
        connection.logBytes = sendsBody ? response.body.count : 0
        connection.logNote = response.accessLogNote
        let now = monotonicNanos()
        let total = UInt64(
            connection.output.count + (connection.sharedBody?.count ?? 0) + (connection.fileBody?.count ?? 0))
        connection.writeDeadline = now + engine.sendTimeoutNanos + total / engine.minimumRate * 1_000_000_000
        connection.phase = .responding(since: now)
    }

    /// The head and body of a cached response, prepared once: the body as a memory file
    /// when it is a large shared one.
    private func prepare(_ response: HTTPResponse) -> PreparedHead {
        let head = ResponseHead.stable(response, log: engine.errorLog)
        guard case .shared(let shared) = response.body, shared.count >= MemoryFile.threshold else {
            return PreparedHead(head)
        }
        return PreparedHead(head, bodyFile: MemoryFile(shared))
    }

    /// Sends what it can of the head and body without blocking: bytes in memory with one
    /// `writev`, a memory file with `sendfile` after its head (sent with MSG_MORE so the
    /// head and the first body bytes still leave in one segment).
    private func transmit(_ connection: Connection) -> Int {
        if let file = connection.fileBody {
            if connection.outputSent < connection.output.count {
                return connection.output.withUnsafeBytes { head in
                    send(
                        connection.descriptor, head.baseAddress! + connection.outputSent,
                        head.count - connection.outputSent, Int32(MSG_NOSIGNAL | MSG_MORE))
                }
            }
            return tabserver_sendfile(
                connection.descriptor, file.descriptor, Int64(connection.fileSent), file.count - connection.fileSent)
        }
        return connection.output.withUnsafeBytes { head in
            withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
                var count = 0
                if connection.outputSent < head.count {
                    vectors[0] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + connection.outputSent),
                        iov_len: head.count - connection.outputSent)
                    count = 1
                }
                if let shared = connection.sharedBody, connection.sharedSent < shared.count {
                    vectors[count] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: shared.baseAddress + connection.sharedSent),
                        iov_len: shared.count - connection.sharedSent)
                    count += 1
                }
                return writev(connection.descriptor, vectors.baseAddress, Int32(count))
            }
        }
    }

    /// Writes what it can without blocking; finishes the request when all is sent.
    private func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            let written = transmit(connection)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    setInterest(connection, .output)
                    return
                }
                closeNow(connection, aborted: true)
                return
            }
            var remaining = written
            let headLeft = connection.output.count - connection.outputSent
            let fromHead = min(remaining, headLeft)
            connection.outputSent += fromHead
            remaining -= fromHead
            if connection.fileBody != nil {
                connection.fileSent += remaining
            } else {
                connection.sharedSent += remaining
            }
        }
        setInterest(connection, .input)
        if let stream = connection.stream {
            // Everything written so far is sent; wait for the app to write more.
            connection.phase = .streaming
            if stream.isClosed { pump(connection) }
            return
        }
        finishRequest(connection, aborted: false)
        if connection.output.capacity > Self.retainedBufferBytes { connection.output = [] }
        if connection.body.capacity > Self.retainedBufferBytes { connection.body = [] }
        if connection.input.isEmpty && connection.input.capacity > Self.retainedBufferBytes { connection.input = [] }
        connection.sharedBody = nil
        connection.fileBody = nil
        if connection.closeAfterWrite {
            linger(connection)
        } else {
            // Pipelined requests already in `input` are served by the caller's loop.
            connection.phase = .idle(since: monotonicNanos())
        }
    }

    private func finishRequest(_ connection: Connection, aborted: Bool) {
        guard connection.inFlight else { return }
        connection.inFlight = false
        connection.requestsServed += 1
        engine.inFlight.subtract(1, ordering: .relaxed)
        engine.completed.add(1, ordering: .relaxed)
        guard let log = engine.accessLog else { return }
        let duration = monotonicNanos() &- connection.requestStart
        if log.format == .json {
            var line = JSONLogLine(level: .info)
            line.add("remote", connection.address)
            line.add("method", connection.logMethod ?? "-")
            line.add("path", connection.logTarget ?? "-")
            line.add("status", connection.logStatus)
            line.add("bytes", connection.logBytes)
            line.add("duration_ms", thousandths: duration / 1000)
            if aborted { line.add("aborted", true) }
            if let note = connection.logNote { line.add("note", note) }
            log.write(bytes: line.finished)
            return
        }
        let line = AccessLogLine(
            address: connection.address, method: connection.logMethod ?? "-", target: connection.logTarget ?? "-",
            status: connection.logStatus, bytesSent: connection.logBytes,
            durationNanos: duration, aborted: aborted, note: connection.logNote)
        log.write(bytes: line.bytes)
    }

    // MARK: Closing

    /// Shuts the write side and reads away what the client still sends, so the answer
    /// is not destroyed by a reset; the sweep closes it for good.
    private func linger(_ connection: Connection) {
        shutdown(connection.descriptor, Int32(SHUT_WR))
        connection.input = []
        connection.phase = .lingering(until: monotonicNanos() + Self.lingerNanos)
    }

    private func closeNow(_ connection: Connection, aborted: Bool) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        connection.deferred = nil
        if let stream = connection.stream {
            connection.stream = nil
            stream.close()  // the app forgets its subscriber
        }
        finishRequest(connection, aborted: aborted)
        close(connection.descriptor)
        if connection.counted {
            engine.openConnections.subtract(1, ordering: .relaxed)
            engine.release(address: connection.address)
        }
    }

    /// Enforces every deadline; while draining also closes connections between requests.
    private func sweep(now: UInt64) {
        let draining = engine.draining.load(ordering: .relaxed)
        for connection in Array(connections.values) {
            switch connection.phase {
            case .idle(let since):
                let limit =
                    connection.requestsServed == 0
                    ? min(engine.idleTimeoutNanos, engine.headerTimeoutNanos) : engine.idleTimeoutNanos
                if draining || now &- since > limit { closeNow(connection, aborted: false) }
            case .head(let since):
                if now &- since > engine.headerTimeoutNanos {
                    timeOut(connection, since: since, "The request head took too long.")
                }
            case .body(let since):
                let allowed =
                    engine.bodyTimeoutNanos + UInt64(connection.body.count) / engine.minimumRate * 1_000_000_000
                if now &- since > allowed { timeOut(connection, since: since, "The request body arrived too slowly.") }
            case .waiting(let since):
                // The app never answered (a store that hangs): give up like a stuck send.
                if now &- since > engine.sendTimeoutNanos { closeNow(connection, aborted: true) }
            case .responding:
                if now > connection.writeDeadline { closeNow(connection, aborted: true) }
            case .lingering(let until):
                // Draining does not wait for lingering clients: their answer is sent.
                if draining || now > until { closeNow(connection, aborted: false) }
            case .streaming:
                // Streams never end by themselves; draining ends them at once.
                if draining { closeNow(connection, aborted: false) }
            }
        }
    }

    /// A deadline passed while reading a request: 408, then close.
    private func timeOut(_ connection: Connection, since: UInt64, _ message: String) {
        engine.timedOut.add(1, ordering: .relaxed)
        if !connection.inFlight { beginRequest(connection, head: nil, now: since) }
        reject(connection, EngineRejection(status: .requestTimeout, message: message))
    }

    // MARK: epoll

    /// While a response is pending, only writability matters, and while an answer is
    /// awaited nothing does: reading more would buffer pipelined requests without bound.
    private func setInterest(_ connection: Connection, _ wanted: Connection.Interest) {
        guard connection.interest != wanted else { return }
        connection.interest = wanted
        let events: UInt32 =
            switch wanted {
            case .input: EpollEvents.input | EpollEvents.readHangUp
            case .output: EpollEvents.output
            case .none: 0
            }
        if !register(
            connection.descriptor, events: events, tag: UInt64(connection.descriptor), operation: Int32(EPOLL_CTL_MOD))
        {
            // A connection whose interest cannot change can no longer be driven.
            engine.recordSystemCallError("epoll_ctl(MOD) of a connection", errno: errno)
            closeNow(connection, aborted: true)
        }
    }

    /// epoll_ctl; false (with errno) when it failed.
    @discardableResult
    private func register(
        _ descriptor: Int32, events: UInt32, tag: UInt64, operation: Int32 = Int32(EPOLL_CTL_ADD)
    ) -> Bool {
        tabserver_epoll_control(epoll, operation, descriptor, events, tag) == 0
    }

    /// The peer's address as text ("-" if unknown).
    private static func addressText(_ storage: inout sockaddr_storage) -> String {
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

/// epoll's event bits (sys/epoll.h), as plain numbers.
enum EpollEvents {
    static let input: UInt32 = 0x001
    static let output: UInt32 = 0x004
    static let error: UInt32 = 0x008
    static let hangUp: UInt32 = 0x010
    static let readHangUp: UInt32 = 0x2000
    static let exclusive: UInt32 = 1 << 28
}
