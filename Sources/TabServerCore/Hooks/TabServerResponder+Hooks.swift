// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerThreads

extension TabServerResponder {
    /// Lanes the observer hooks run on: a slow hook holds up only the sessions of its lane.
    static let hookLaneCount = 4
    /// Events a lane holds, not yet delivered, before it refuses more (each a few hundred
    /// bytes): past it a hook is far slower than visitors tap, and waiting would only grow.
    static let hookLaneCapacity = 1024

    /// Queues a request's committed hook events for their observers, on the lane of the
    /// visitor (a signed-in user's record, else the session), so one visitor's events
    /// arrive in the order they were committed and never on the thread that completed the
    /// commit (the SQLite writer, an engine loop). A full lane drops them: counted in
    /// `/metrics` and logged once per episode.
    func deliverLater(_ announcement: Announcement) {
        let hooks = appHooks
        let user = announcement.user
        let events = announcement.events
        let key = (announcement.userRecordID ?? announcement.sessionID)?.hashValue ?? 0
        let added = hookLanes.add(key: key) {
            AppHooks.$user.withValue(user) { hooks.deliver(events) }
        }
        guard !added, let count = hookOverflow.record() else { return }
        log?.write(
            "hooks: \(count) request(s)' events dropped: the hook queue is full (an observer hook is slow)",
            level: .error)
    }

    /// Waits until the observers have been told of every event committed so far, for at
    /// most `timeout`; false when some were still queued or running then. For tests over
    /// a socket, and for a server that stops (its hooks get that long).
    public func finishHooks(within timeout: Duration) -> Bool {
        hookLanes.finish(within: timeout)
    }
}
