import HTTPTypes
import Synchronization

/// The state libmicrohttpd's callbacks share, reached through the daemon's context pointer.
/// Everything in it is immutable or atomic, so it is `Sendable` without exceptions.
final class EngineContext: Sendable {
    let responder: any HTTPResponder
    let maxBodySize: Int
    let accessLog: LogSink?
    let errorLog: LogSink
    let inFlight = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    let completed = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)

    init(responder: any HTTPResponder, maxBodySize: Int, accessLog: LogSink?, errorLog: LogSink) {
        self.responder = responder
        self.maxBodySize = maxBodySize
        self.accessLog = accessLog
        self.errorLog = errorLog
    }
}
