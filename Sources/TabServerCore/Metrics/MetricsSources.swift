// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// What `/metrics` reads besides the app's own counters (`AppMetrics`).
struct MetricsSources: Sendable {
    /// Asked whether it is up and, where counting is cheap, how many sessions it holds.
    let store: any SessionStore
    /// Its relay's publish failures.
    let events: EventHub
    /// The finished pages kept.
    let pageAnswers: PageAnswerCache
    /// Hook events queued and not yet delivered.
    let hooksWaiting: @Sendable () -> Int
    /// Requests' hook events queued for the observers since start.
    let hooksQueued: @Sendable () -> Int
    /// Hook events dropped because their lane was full.
    let hooksDropped: @Sendable () -> Int
    /// New sessions the per-client budget refused to store.
    let newSessionsRefused: @Sendable () -> Int
    /// Jobs the work lanes took: requests that would have waited, and these expositions.
    let workLaneJobs: @Sendable () -> Int
    /// Web Push's lines, when it is on.
    var push: (@Sendable () -> String)? = nil
}
