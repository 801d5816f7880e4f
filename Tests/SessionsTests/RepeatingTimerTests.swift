// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerTesting
import Testing

@testable import TabServerThreads

/// Periodic work on the timer thread: it repeats until its tick says stop, until
/// cancelled, or until its last reference goes; timers of different intervals keep each
/// their own pace.
@Suite("Repeating timer")
struct RepeatingTimerTests {
    final class Ticks: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .acquiring) }
        func add() -> Int { count.add(1, ordering: .acquiringAndReleasing).newValue }
    }

    @Test("it ticks until the tick says stop, then never again")
    func stopsWhenTold() {
        let (ticks, witness) = (Ticks(), Ticks())
        let timer = RepeatingTimer(every: .milliseconds(1)) { ticks.add() < 3 }
        #expect(waitUntil(.seconds(60)) { ticks.value == 3 })
        // A witness on the same thread and interval: ten of its ticks are ten chances for a
        // fourth tick, had the timer gone on.
        let control = RepeatingTimer(every: .milliseconds(1)) { witness.add() > 0 }
        #expect(waitUntil(.seconds(60)) { witness.value >= 10 })
        #expect(ticks.value == 3)
        withExtendedLifetime((timer, control)) {}
    }

    @Test("cancelled, or let go of, it stops ticking; the others go on")
    func cancelStops() {
        let (cancelled, released, other) = (Ticks(), Ticks(), Ticks())
        let first = RepeatingTimer(every: .milliseconds(1)) { cancelled.add() > 0 }
        var second: RepeatingTimer? = RepeatingTimer(every: .milliseconds(1)) { released.add() > 0 }
        let third = RepeatingTimer(every: .milliseconds(2)) { other.add() > 0 }
        #expect(waitUntil(.seconds(60)) { cancelled.value >= 2 && released.value >= 2 })
        first.cancel()
        second = nil
        // A tick under way may still finish; none starts after it.
        let (atCancel, atRelease, othersBefore) = (cancelled.value, released.value, other.value)
        #expect(waitUntil(.seconds(60)) { other.value >= othersBefore + 10 }, "the third timer goes on")
        #expect(cancelled.value <= atCancel + 1, "a cancelled timer ticked on")
        #expect(released.value <= atRelease + 1, "a timer ticked on after its last reference went")
        withExtendedLifetime((first, second, third)) {}
    }

    @Test("a long interval does not hold up a short one")
    func intervalsKeepTheirPace() {
        let (slow, fast) = (Ticks(), Ticks())
        let hourly = RepeatingTimer(every: .seconds(3_600)) { slow.add() > 0 }
        let quick = RepeatingTimer(every: .milliseconds(5)) { fast.add() > 0 }
        #expect(waitUntil(.seconds(60)) { fast.value >= 5 })
        #expect(slow.value == 0)
        withExtendedLifetime((hourly, quick)) {}
    }
}
