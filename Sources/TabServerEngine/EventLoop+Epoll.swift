// SPDX-License-Identifier: Apache-2.0
import CLinuxIO

#if canImport(Glibc)
    import Glibc
#endif

/// The loop's epoll registrations.
extension EventLoop {
    /// While a response is pending, only writability matters, and while an answer is
    /// awaited nothing does: reading more would buffer pipelined requests without bound.
    /// False when epoll refused the change: the connection is then closed.
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
