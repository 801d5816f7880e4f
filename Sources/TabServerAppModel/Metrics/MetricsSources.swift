// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// What `/metrics` reads besides the app's own counters (`AppMetrics`).
package struct MetricsSources: Sendable {
    /// Asked whether it is up and, where counting is cheap, how many sessions it holds.
    package let store: any EngineSessionStore
    /// Its relay's publish failures.
    package let events: EventHub
    /// The release serving (`tabserver_build_info`).
    package let version: String
    /// The cache of finished pages: hits since start, and the entries and bytes it holds now.
    package let pageCache: @Sendable () -> (hits: Int, entries: Int, bytes: Int)
    /// Hook events queued and not yet delivered.
    package let hooksWaiting: @Sendable () -> Int
    /// Requests' hook events queued for the observers since start.
    package let hooksQueued: @Sendable () -> Int
    /// Hook events dropped because their lane was full.
    package let hooksDropped: @Sendable () -> Int
    /// New sessions the per-client budget refused to store.
    package let newSessionsRefused: @Sendable () -> Int
    /// Jobs the work lanes took: requests that would have waited, and these expositions.
    package let workLaneJobs: @Sendable () -> Int
    /// Web Push's lines, when it is on.
    package var push: (@Sendable () -> String)?

    package init(
        store: any EngineSessionStore, events: EventHub, version: String,
        pageCache: @escaping @Sendable () -> (hits: Int, entries: Int, bytes: Int),
        hooksWaiting: @escaping @Sendable () -> Int, hooksQueued: @escaping @Sendable () -> Int,
        hooksDropped: @escaping @Sendable () -> Int, newSessionsRefused: @escaping @Sendable () -> Int,
        workLaneJobs: @escaping @Sendable () -> Int, push: (@Sendable () -> String)? = nil
    ) {
        self.store = store
        self.events = events
        self.version = version
        self.pageCache = pageCache
        self.hooksWaiting = hooksWaiting
        self.hooksQueued = hooksQueued
        self.hooksDropped = hooksDropped
        self.newSessionsRefused = newSessionsRefused
        self.workLaneJobs = workLaneJobs
        self.push = push
    }
}
