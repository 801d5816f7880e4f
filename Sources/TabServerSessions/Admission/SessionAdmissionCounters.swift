// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A store's admission counters, shared by its threads (relaxed atomics: they are read
/// only for `/metrics` and tests).
package final class SessionAdmissionCounters: Sendable {
    private let created = Atomic<Int>(0)
    private let promoted = Atomic<Int>(0)
    private let evictedProbationary = Atomic<Int>(0)
    private let evictedEstablished = Atomic<Int>(0)
    private let evictedUsers = Atomic<Int>(0)

    package init() {}

    package func recordCreated() { created.add(1, ordering: .relaxed) }

    package func recordPromoted() { promoted.add(1, ordering: .relaxed) }

    /// Counts `count` sessions evicted from `standing`.
    package func recordEvicted(_ standing: SessionStanding, count: Int = 1) {
        guard count > 0 else { return }
        switch standing {
        case .probationary: evictedProbationary.add(count, ordering: .relaxed)
        case .established: evictedEstablished.add(count, ordering: .relaxed)
        case .user: evictedUsers.add(count, ordering: .relaxed)
        }
    }

    package var snapshot: SessionAdmissionCounts {
        var counts = SessionAdmissionCounts()
        counts.created = created.load(ordering: .relaxed)
        counts.promoted = promoted.load(ordering: .relaxed)
        counts.evictedProbationary = evictedProbationary.load(ordering: .relaxed)
        counts.evictedEstablished = evictedEstablished.load(ordering: .relaxed)
        counts.evictedUsers = evictedUsers.load(ordering: .relaxed)
        return counts
    }
}
