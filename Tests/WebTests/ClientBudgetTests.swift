// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerWeb
import Testing

@Suite("ClientBudget and ClientKey: a token bucket per client address, IPv6 by /64")
struct ClientBudgetTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let nanos = Atomic<UInt64>(1_000_000_000)
        func advance(seconds: Double) { nanos.add(UInt64(seconds * 1_000_000_000), ordering: .relaxed) }
        func rewind(seconds: Double) { nanos.subtract(UInt64(seconds * 1_000_000_000), ordering: .relaxed) }
        var read: @Sendable () -> UInt64 { { [self] in nanos.load(ordering: .relaxed) } }
    }

    @Test("the burst is taken at once, then one unit per 1/rate seconds; Retry-After says when")
    func burstThenRate() {
        let clock = ManualClock()
        let budget = ClientBudget(rate: 2, burst: 3, clock: clock.read)
        let client = ClientKey(address: "203.0.113.7")
        for _ in 0..<3 { #expect(budget.take(client) == .allowed) }
        #expect(!budget.allows(client))
        #expect(budget.take(client) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.4)
        #expect(budget.take(client) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.2)
        #expect(budget.allows(client))
        #expect(budget.take(client) == .allowed)
        #expect(budget.take(client) == .refused(retryAfter: 1))
        // A long pause refills no more than the burst.
        clock.advance(seconds: 3_600)
        for _ in 0..<3 { #expect(budget.take(client) == .allowed) }
        #expect(budget.take(client) == .refused(retryAfter: 1))
    }

    @Test("a time read before the bucket's last charge (another thread's, lock taken later) refills nothing")
    func clockReadEarlier() {
        // Two engine threads read the clock, then take the lock in the other order: the
        // second charge's time is before the bucket's. It must count as no time passed,
        // not as an unsigned wrap to centuries (which refilled the whole burst).
        let clock = ManualClock()
        let budget = ClientBudget(rate: 1, burst: 2, clock: clock.read)
        let client = ClientKey(address: "192.0.2.40")
        #expect(budget.take(client) == .allowed)
        #expect(budget.take(client) == .allowed)
        clock.rewind(seconds: 0.001)
        #expect(!budget.allows(client))
        #expect(budget.take(client) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.5)
        #expect(budget.take(client) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.6)
        #expect(budget.take(client) == .allowed)
    }

    @Test("a slow rate asks for a longer wait")
    func retryAfter() {
        let clock = ManualClock()
        let budget = ClientBudget(rate: 0.1, burst: 1, clock: clock.read)
        let client = ClientKey(address: "198.51.100.1")
        #expect(budget.take(client) == .allowed)
        #expect(budget.take(client) == .refused(retryAfter: 10))
    }

    @Test("clients are counted apart; an IPv6 /64 is one client, another /64 another")
    func keys() {
        let budget = ClientBudget(rate: 1, burst: 1, clock: ManualClock().read)
        #expect(budget.take(ClientKey(address: "203.0.113.7")) == .allowed)
        #expect(budget.take(ClientKey(address: "203.0.113.8")) == .allowed)
        #expect(budget.take(ClientKey(address: "2001:db8:1:2::1")) == .allowed)
        #expect(budget.take(ClientKey(address: "2001:db8:1:2:ffff:ffff:ffff:fffe")) != .allowed, "the same /64")
        #expect(budget.take(ClientKey(address: "2001:db8:1:3::1")) == .allowed, "the next /64")
        #expect(budget.take(ClientKey(address: "::ffff:203.0.113.7")) != .allowed, "IPv4 seen through IPv6")
    }

    @Test("keys read as the address or the /64 they stand for")
    func descriptions() {
        #expect(ClientKey(address: "203.0.113.7").description == "203.0.113.7")
        #expect(ClientKey(address: "::ffff:10.1.2.3").description == "10.1.2.3")
        #expect(ClientKey(address: "2001:db8:1:2:3:4:5:6").description == "2001:db8:1:2::/64")
        #expect(ClientKey(address: "2001:DB8:0:0:1::").description == "2001:db8:0:0::/64")
        #expect(ClientKey(address: "not an address").description == "not an address")
        #expect(ClientKey(address: "2001:db8::1") == ClientKey(address: "2001:0db8:0000:0000::2"))
    }

    @Test("the table stays bounded: refilled clients are forgotten first, then the least recently charged")
    func bounded() {
        let clock = ManualClock()
        let budget = ClientBudget(rate: 1, burst: 2, clients: 160, clock: clock.read)
        for index in 0..<2_000 { _ = budget.take(ClientKey(address: "10.0.\(index / 256).\(index % 256)")) }
        #expect(budget.trackedClients <= 160)
        // A client forgotten starts afresh: its budget is whole again.
        clock.advance(seconds: 10)
        let client = ClientKey(address: "10.0.0.0")
        #expect(budget.take(client) == .allowed)
        #expect(budget.take(client) == .allowed)
        #expect(budget.take(client) != .allowed)
    }
}
