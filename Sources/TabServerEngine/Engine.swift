// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCrypto
import TabServerHTTP

/// What every event loop of one server shares: the responder, the limits, the logs and
/// the counters. Immutable or atomic (the per-address table behind a `Mutex`), so it is
/// `Sendable` without exceptions.
final class Engine: Sendable {
    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let accessLog: LogSink?
    let errorLog: LogSink
    /// Runs the jobs of tasks whose loop has stopped (`EventLoop.stopJobs`).
    let afterStop = AfterStopJobs()
    let listenDescriptor: Int32
    /// The listener's TLS context when it serves HTTPS; nil for plain HTTP.
    let tls: TLSServerContext?
    /// The responder when it answers from heads alone (the plain listener redirecting to
    /// HTTPS): bodies are then never read.
    let headResponder: (any HeadResponder)?
    /// `Strict-Transport-Security: …` and CRLF, added to every answer over TLS; nil: none.
    let strictTransportSecurityField: [UInt8]?
    /// The same field's value, for HTTP/2 answers (always over TLS).
    let strictTransportSecurityValue: String?

    /// The event loops, to deal accepted connections out in turn (emptied at shutdown).
    let loops = Mutex<[EventLoop]>([])
    private let nextLoopIndex = Atomic<Int>(0)

    let inFlight = Atomic<Int>(0)
    let completed = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    let refusedConnections = Atomic<Int>(0)
    let timedOut = Atomic<Int>(0)
    /// HTTP/2 connections ended on a client's fault (`EventLoop.endHTTP2`).
    let http2ConnectionErrors = Atomic<Int>(0)
    /// System calls on connections that failed where they should not (epoll_ctl, the
    /// interim 100 Continue): counted, logged once per episode.
    let systemCallErrors = ErrorEpisode()
    /// The server's life (`HTTPServer.State`): the loops read it to refuse, close and exit.
    let lifecycle: Lifecycle
    /// `shutdown` began: new connections are refused, idle ones closed, answers carry
    /// `Connection: close`.
    var draining: Bool { lifecycle.state.isDraining }
    /// The grace period is over: loops close everything and exit.
    var stopping: Bool { lifecycle.state.isStopping }
    private let perAddress = Mutex<[String: Int]>([:])

    // Limits in the units the loops compare against.
    let headerTimeoutNanos: UInt64
    let bodyTimeoutNanos: UInt64
    let sendTimeoutNanos: UInt64
    let idleTimeoutNanos: UInt64
    let minimumRate: UInt64
    /// The limits as the HTTP/1.1 state machine takes them.
    let http1Limits: HTTP1StateMachine.Limits
    /// The limits as the HTTP/2 state machine takes them.
    let http2Limits: HTTP2StateMachine.Limits

    init(
        responder: any HTTPResponder, configuration: HTTPServerConfiguration, accessLog: LogSink?,
        errorLog: LogSink, listenDescriptor: Int32, lifecycle: Lifecycle, tls: TLSServerContext? = nil
    ) {
        self.lifecycle = lifecycle
        self.tls = tls
        headResponder = responder as? any HeadResponder
        strictTransportSecurityValue = configuration.tls?.strictTransportSecurity?.fieldValue
        strictTransportSecurityField = configuration.tls?.strictTransportSecurity.map {
            Array("Strict-Transport-Security: \($0.fieldValue)\r\n".utf8)
        }
        self.responder = responder
        self.configuration = configuration
        self.accessLog = accessLog
        self.errorLog = errorLog
        self.listenDescriptor = listenDescriptor
        headerTimeoutNanos = Self.nanos(configuration.headerTimeout)
        bodyTimeoutNanos = Self.nanos(configuration.bodyTimeout)
        sendTimeoutNanos = Self.nanos(configuration.sendTimeout)
        idleTimeoutNanos = Self.nanos(configuration.connectionTimeout)
        minimumRate = UInt64(max(1, configuration.bodyMinimumRate))
        http1Limits = HTTP1StateMachine.Limits(
            memoryPerConnection: configuration.memoryPerConnection, maxBodySize: configuration.maxBodySize,
            headerTimeout: headerTimeoutNanos, bodyTimeout: bodyTimeoutNanos, idleTimeout: idleTimeoutNanos,
            sendTimeout: sendTimeoutNanos, minimumRate: minimumRate, answersFromHead: headResponder != nil)
        http2Limits = HTTP2StateMachine.Limits(
            headerTimeout: headerTimeoutNanos, bodyTimeout: bodyTimeoutNanos, idleTimeout: idleTimeoutNanos,
            sendTimeout: sendTimeoutNanos)
    }

    private static func nanos(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// Counts a failed system call and logs it (once per episode; see `ErrorEpisode`).
    func recordSystemCallError(_ call: String, errno code: Int32) {
        guard let count = systemCallErrors.record() else { return }
        errorLog.write(
            "\(call) failed: \(String(cString: strerror(code)))\(count > 1 ? " (\(count) failures since the last report)" : ""); the connection is closed",
            level: .error)
    }

    /// Admits a new connection from `address` if the per-address limit allows it.
    func admit(address: String) -> Bool {
        let limit = configuration.perAddressConnectionLimit
        guard limit > 0 else { return true }
        return perAddress.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    /// Balances `admit` when an admitted connection closes.
    func release(address: String) {
        guard configuration.perAddressConnectionLimit > 0 else { return }
        perAddress.withLock { counts in
            let remaining = counts[address, default: 1] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }

    /// The loop the next accepted connection goes to (round robin); nil before the loops
    /// are known or after shutdown.
    func nextLoop() -> EventLoop? {
        let index = nextLoopIndex.add(1, ordering: .relaxed).oldValue
        return loops.withLock { loops in loops.isEmpty ? nil : loops[index % loops.count] }
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

#if canImport(Glibc)
    import Glibc
#endif
