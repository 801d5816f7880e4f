// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerThreads

/// The app's hooks and how their events reach them. A veto (`shouldSelect`) is asked on
/// the request's own path; the observers hear a request's committed events later, on the
/// lane of its visitor (a signed-in user's record, else the session), so one visitor's
/// events arrive in the order they were committed and never on the thread that completed
/// the commit (the SQLite writer, an engine loop). A full lane drops them: counted in
/// `/metrics` and logged once per episode.
struct HookDelivery: Sendable {
    /// Lanes the observer hooks run on: a slow hook holds up only the sessions of its lane.
    static let laneCount = 4
    /// Events a lane holds, not yet delivered, before it refuses more (each a few hundred
    /// bytes): past it a hook is far slower than visitors tap, and waiting would only grow.
    static let laneCapacity = 1024

    /// The hooks the app gave.
    let app: AppHooks
    private let lanes = LaneQueue(lanes: Self.laneCount, capacity: Self.laneCapacity)
    /// Requests whose events were dropped because their lane was full.
    private let overflow = ErrorEpisode()
    private let log: LogSink?

    init(_ app: AppHooks, log: LogSink?) {
        self.app = app
        self.log = log
    }

    /// Queues a request's committed events for the observers.
    func deliverLater(_ announcement: TabServerResponder.Announcement) {
        let hooks = app
        let user = announcement.user
        let events = announcement.events
        let key = (announcement.userRecordID ?? announcement.sessionID)?.hashValue ?? 0
        let added = lanes.add(key: key) {
            AppHooks.$user.withValue(user) { hooks.deliver(events) }
        }
        guard !added, let count = overflow.record() else { return }
        log?.write(
            "hooks: \(count) request(s)' events dropped: the hook queue is full (an observer hook is slow)",
            level: .error)
    }

    /// Waits until the observers have been told of every event queued so far, for at most
    /// `timeout`; false when some were still queued or running then.
    func finish(within timeout: Duration) -> Bool { lanes.finish(within: timeout) }

    /// Events queued and not yet delivered (`/metrics`).
    var waiting: Int { lanes.waiting }
    /// Requests whose events were queued (`/metrics`).
    var accepted: Int { lanes.accepted }
    /// Requests whose events were dropped (`/metrics`).
    var dropped: Int { overflow.total }
}
