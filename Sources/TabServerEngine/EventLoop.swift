// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import Synchronization
import TabServerHTTP
import TabServerHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// One engine thread: an epoll loop that accepts from the shared listening socket
/// (`EPOLLEXCLUSIVE`, so one loop wakes per connection), reads and parses requests,
/// gives them to the responder (at once, or as a task that runs on this loop: the loop is
/// a task executor, `EventLoop+Executor`), writes answers without blocking, and enforces
/// every deadline on a 100 ms sweep.
///
/// This file holds the loop itself (its thread, the epoll wait, the wake-up pipe); each
/// concern is an extension of its own: `EventLoop+Accept` (accepting, the connection
/// budget), `+Reading` (heads and bodies), `+Answering` (the responder, answers that
/// come later, the finished request), `+Writing` (sending answers and streams),
/// `+Deadlines` (the sweep), `+Drain` (the graceful stop), `+Closing` (linger and
/// close), `+Epoll` (registrations); `Connection` carries each connection's state.
///
/// `@unchecked Sendable` is safe: after `start`, every stored property except the wake
/// pipe's write end, the mutex-guarded queues and `thread` is touched only by the loop's
/// own thread; `wake()` only writes one byte to that pipe, which the kernel synchronizes;
/// `thread` is written once, by the loop's thread as it starts, before any job or answer
/// for it can exist (they come from requests it reads), and only read after. The
/// properties it touches for every request skip the runtime's exclusivity check, as
/// `Connection`'s do.
final class EventLoop: @unchecked Sendable {
    let engine: Engine
    let epoll: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    @exclusivity(unchecked) var connections = ConnectionTable()
    @exclusivity(unchecked) var listening = true
    @exclusivity(unchecked) var date = HTTPDate()
    var thread = pthread_t()
    /// picohttpparser's scratch for the heads this loop parses.
    let fields = HeadFields()
    let readBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var nextSweep: UInt64 = 0
    /// Connections whose stream has bytes (or ended), named by other threads; the loop
    /// takes the list when woken.
    let readyStreams = Mutex<[Int32]>([])
    /// Connections other loops accepted for this one, not yet registered.
    let adopted = Mutex<[(descriptor: Int32, address: String)]>([])
    /// Jobs of the tasks that run on this loop (`EventLoop+Executor`).
    let jobs = Mutex(JobQueue())
    /// The loop's side of the job queue: swapped with the queue's list each round, so
    /// taking the jobs allocates nothing (`runJobs`).
    @exclusivity(unchecked) var takenJobs: [UnownedJob] = []
    /// Connections with something for the loop, named on the loop's own thread (a task
    /// that completed an answer there): served after the jobs, without the pipe.
    @exclusivity(unchecked) var localReady: [Int32] = []
    /// `localReady`'s other buffer: the two trade places in `takeReady`, so neither is
    /// allocated again (copying the list out and emptying it allocated every time).
    @exclusivity(unchecked) var takenReady: [Int32] = []
    /// The access-log lines of requests finished in this pass of the loop, and how many;
    /// handed to the log's writer at the end of the pass.
    @exclusivity(unchecked) var accessLogBatch: [UInt8] = []
    @exclusivity(unchecked) var accessLogLines = 0

    static let listenTag = UInt64.max
    private static let wakeTag = UInt64.max - 1
    /// A descriptor held in reserve: when accept fails for lack of descriptors, it is
    /// closed to accept one waiting client, answer it 503 and close it, so the backlog
    /// drains with answers instead of the loop spinning on a listening socket it cannot
    /// serve.
    var spareDescriptor: Int32 = -1
    var lastDescriptorWarning: UInt64 = 0

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
        readBuffer.deallocate()
    }

    /// Starts the loop's thread.
    func start() throws(HTTPServerError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        var created = pthread_t()
        let result = pthread_create(
            &created, nil,
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
        thread = pthread_self()
        // OpenSSL writes records with write(2), not send(MSG_NOSIGNAL): a peer gone away
        // would raise SIGPIPE and end the process of an app that does not ignore it. On
        // the loop's own thread it is blocked, so the write fails with EPIPE instead.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var scratch = [epoll_event](repeating: epoll_event(), count: 256)
        var events = [tabserver_epoll_ready](repeating: tabserver_epoll_ready(), count: 256)
        var jobsLeft = false
        while true {
            let count = tabserver_epoll_wait(epoll, &scratch, &events, Int32(events.count), jobsLeft ? 0 : 100)
            if engine.stopping { break }
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
            // What this thread named ready while it served the events (an answer given
            // at once, a stream's first bytes), then the tasks' jobs.
            takeReady()
            jobsLeft = runJobs() || !localReady.isEmpty
            handOverAccessLog()
            let now = monotonicNanos()
            if now >= nextSweep {
                nextSweep = now + Self.sweepNanos
                sweep(now: now)
            }
        }
        closeEverything()
        stopJobs()
        handOverAccessLog()
    }

    private func drainWakePipe() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &scratch, scratch.count) > 0 {}
        let arrivals = adopted.withLock { adopted -> [(descriptor: Int32, address: String)] in
            defer { adopted = [] }
            return adopted
        }
        for arrival in arrivals { admit(arrival.descriptor, address: arrival.address) }
        serve(
            readyStreams.withLock { ready in
                defer { ready = [] }
                return ready
            })
        if engine.draining { sweep(now: monotonicNanos()) }
    }

    /// Serves what the loop's own thread named ready (answers its tasks completed).
    func takeReady() {
        guard !localReady.isEmpty else { return }
        var ready = takenReady
        takenReady = []
        swap(&ready, &localReady)
        serve(ready)
        ready.removeAll(keepingCapacity: true)
        takenReady = ready
    }

    /// Acts on connections that have something: an answer that came, a stream's bytes.
    private func serve(_ ready: [Int32]) {
        for descriptor in ready {
            guard let connection = connections[descriptor] else { continue }
            switch connection.http1.phase {
            case .http2: serviceHTTP2(connection)
            case .waiting: resume(connection)
            default: pump(connection)
            }
        }
    }
}
