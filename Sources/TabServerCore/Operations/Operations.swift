// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerThreads

/// What runs beside the requests: the one pool for work that blocks, the metrics, and
/// the backup endpoint of a store that backs itself up.
struct Operations: Sendable {
    /// Threads of the blocking pool: store calls that wait, the app's blocking work.
    static let blockingLanes = 4
    /// Jobs a lane of the pool holds before it refuses more with 503: a store that answers
    /// takes well under a millisecond a request; 256 queued means it does not.
    static let blockingCapacity = 256

    /// Where what blocks runs: store calls that wait, the app's own (`context.blocking`).
    let blockingPool = BlockingPool(lanes: Self.blockingLanes, capacity: Self.blockingCapacity)
    /// Nil when metrics are off: then nothing is measured at all.
    let metrics: AppMetrics?
    /// `POST /admin/backup` (a `BackingUpSessionStore` only: SQLite's).
    let backup: BackupEndpoint?
}
