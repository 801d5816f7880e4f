// SPDX-License-Identifier: Apache-2.0
import CLinuxIO

#if canImport(Glibc)
    import Glibc
#endif

/// The graceful drain (`HTTPServer.shutdown()` sets `draining`, later `stopping`): the
/// loop stops listening, closes what need not be waited for, lets requests in progress
/// finish with `Connection: close`, and at the stop closes everything left.
extension EventLoop {
    /// The listening socket was shut down: this loop no longer accepts from it.
    func stopListening() {
        listening = false
        if !register(engine.listenDescriptor, events: 0, tag: Self.listenTag, operation: Int32(EPOLL_CTL_DEL)) {
            engine.recordSystemCallError("epoll_ctl(DEL) of the listening socket", errno: errno)
        }
    }

    /// Whether a drain closes `connection` at once: between requests, with its answer
    /// already sent (lingering: the client has it), or holding a stream (which never ends
    /// by itself). A request being read, awaited or written is left to finish; HTTP/2
    /// is sent a GOAWAY and finishes its streams (`sweepHTTP2`).
    func closesWhenDraining(_ connection: Connection) -> Bool {
        connection.http1.closesWhenDraining
    }

    /// The grace period is over: every connection is closed (requests in flight logged
    /// as aborted), and connections handed over by other loops but not yet taken.
    func closeEverything() {
        for connection in connections.values { closeNow(connection, aborted: true) }
        let unadmitted = adopted.withLock { $0.map(\.descriptor) }
        for descriptor in unadmitted { close(descriptor) }
    }
}
