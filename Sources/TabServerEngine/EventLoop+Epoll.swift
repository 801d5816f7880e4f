// SPDX-License-Identifier: Apache-2.0
import CLinuxIO

#if canImport(Glibc)
    import Glibc
#endif

/// The loop's epoll registrations.
extension EventLoop {
    /// Sets what the loop waits for on `connection` (see `Connection.Interest`): input
    /// between requests and while an answer is awaited (pipelined requests are buffered
    /// up to the connection's limit, and a reset is seen at once), output while a
    /// response is stuck on a full socket, nothing once an awaited answer's client has
    /// closed its side or filled its buffer. False when epoll refused the change: the
    /// connection is then closed.
    @discardableResult
    func setInterest(_ connection: Connection, _ wanted: Connection.Interest) -> Bool {
        guard connection.interest != wanted else { return true }
        connection.interest = wanted
        let events: UInt32 =
            switch wanted {
            case .input: EpollEvents.input | EpollEvents.readHangUp
            case .output: EpollEvents.output
            case .none: 0
            case .both: EpollEvents.input | EpollEvents.readHangUp | EpollEvents.output
            }
        if !register(
            connection.descriptor, events: events, tag: UInt64(connection.descriptor), operation: Int32(EPOLL_CTL_MOD))
        {
            // A connection whose interest cannot change can no longer be driven.
            engine.recordSystemCallError("epoll_ctl(MOD) of a connection", errno: errno)
            closeNow(connection, aborted: true)
            return false
        }
        return true
    }

    /// epoll_ctl; false (with errno) when it failed.
    @discardableResult
    func register(
        _ descriptor: Int32, events: UInt32, tag: UInt64, operation: Int32 = Int32(EPOLL_CTL_ADD)
    ) -> Bool {
        tabserver_epoll_control(epoll, operation, descriptor, events, tag) == 0
    }
}
