// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A slot where the engine keeps its own ready-made form of a response that is sent
/// again and again (a static file), so it builds that form once instead of per request.
///
/// The web layer keeps a slot with each such response and never looks inside; whichever
/// engine serves them fills the slot on first use. A response without a cache is built
/// afresh each time.
///
/// ```swift
/// let slot = ResponseCache()                           // kept with the response
/// let answer = ResponderAnswer(response, prepared: slot) // the engine prepares it once
/// ```
public final class ResponseCache: Sendable {
    /// What an engine stores: any immutable, thread-safe object of its own.
    public final class Entry: Sendable {
        /// The engine's prepared response.
        public let object: any AnyObject & Sendable

        public init(_ object: any AnyObject & Sendable) { self.object = object }
    }

    /// The entry's address once stored (0 before), retained by the slot until it goes.
    /// An atomic word of our own rather than `AtomicLazyReference`, whose `load` runs
    /// unspecialized (a generic call) on every cached answer.
    private let slot = Atomic<UInt>(0)

    /// An empty slot.
    public init() {}

    /// The stored entry, or the one `make` builds (stored for next time). When two
    /// threads race, both build, one entry wins and both get the winner. Nil when
    /// `make` cannot build one; the next call tries again.
    public func entry(orMake make: () -> Entry?) -> Entry? {
        let stored = slot.load(ordering: .acquiring)
        if stored != 0 { return Self.entry(at: stored) }
        guard let made = make() else { return nil }
        let address = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
        let (exchanged, winner) = slot.compareExchange(
            expected: 0, desired: address, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if exchanged { return made }
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        return Self.entry(at: winner)
    }

    /// The entry stored at `address` (retained for the caller; the slot keeps its own).
    private static func entry(at address: UInt) -> Entry {
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }

    deinit {
        let stored = slot.load(ordering: .acquiring)
        if stored != 0 { Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: stored)!).release() }
    }
}

extension ResponseCache: Hashable {
    public static func == (lhs: ResponseCache, rhs: ResponseCache) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
