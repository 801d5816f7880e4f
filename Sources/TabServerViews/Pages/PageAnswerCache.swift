// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerThreads

/// Finished answers to tab page GETs, head and body, plain and gzip, so a visitor who
/// loads the same page again (a reload, Back, a revalidation, the next crawler of the
/// first page) costs one look-up: no session reconciling, no rendering, no head built
/// (the engine prepares each entry's head once, see `ResponseCache`).
///
/// An entry is keyed by everything its bytes depend on: the session and the revision
/// of it the page shows (a write makes a new revision, so a change is never served
/// stale), the form token, the path, the page's variant (its language, platform, the
/// app's part, the model's generation: `PageVariant`) and the encoding. The responder
/// stores only pages of cacheable content (`TabPage.cacheKey`) that changed nothing (no
/// write, no cookie, no notice), for anonymous visitors, without a query, not for
/// prefetches.
///
/// Bounded in bytes: stripes by key, each thinning its oldest pages that can be filled
/// in again, then dropping its oldest entries (see `Stripe`). Two threads contend only
/// when their keys share a stripe.
package final class PageAnswerCache: Sendable {
    /// What a page depends on.
    package struct Key: Hashable, Sendable {
        /// The stored session (nil: a visitor without one, who sees the shared first page).
        package let session: SessionID?
        package let revision: Int
        /// A store that confirms writes later marks its own unconfirmed copies (see
        /// `Session.writeToken`): such a copy is a page of its own.
        package let writeToken: UInt64
        /// The form token the page carries: the session's, or (nil) the signed one of
        /// `formHour`, the same for every visitor without a session within the hour.
        package let formToken: SessionID?
        let formHour: UInt32
        let path: String
        /// Everything else the page is made from, whole.
        package let variant: PageVariant
        package let gzip: Bool

        package init(
            session: SessionID?, revision: Int, writeToken: UInt64, formToken: SessionID?, formHour: UInt32,
            path: String, variant: PageVariant, gzip: Bool
        ) {
            self.session = session
            self.revision = revision
            self.writeToken = writeToken
            self.formToken = formToken
            self.formHour = formHour
            self.path = path
            self.variant = variant
            self.gzip = gzip
        }

        /// Hashes what tells one page from another in three words (`==` still compares
        /// every field): the session, its revision, and the path, variant and coding. Keys
        /// that differ only in the rest (another hour's form token) share a hash, so the
        /// newer replaces the older, stale by then, in a stripe's table of one entry per hash.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(session)
            hasher.combine(revision)
            hasher.combine(pageWord)
        }

        /// The path, the variant and the coding in one word.
        private var pageWord: UInt64 { Self.digest(path) &* 31 &+ variant.digest &* 17 &+ (gzip ? 1 : 0) }

        /// The key's hash for the cache's tables: what `hash(into:)` hashes, mixed with a
        /// seed drawn at start by SplitMix64's finalizer, one word at a time. Each step is
        /// a bijection of the hash so far, so keys of the same session and revision
        /// collide only when their paths' and variants' digests do.
        package var tableHash: Int {
            var mixed = UInt64(truncatingIfNeeded: session?._rawHashValue(seed: Self.seed) ?? Self.seed)
            mixed = Self.mixed(mixed ^ UInt64(truncatingIfNeeded: revision))
            mixed = Self.mixed(mixed ^ pageWord)
            return Int(truncatingIfNeeded: mixed)
        }

        private static let seed = Int.random(in: .min ... .max)

        /// SplitMix64's finalizer.
        private static func mixed(_ word: UInt64) -> UInt64 {
            var mixed = (word ^ (word &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed &>> 31)
        }

        /// Feeds every field to `hasher`: what an ETag made from the key must tell apart
        /// (another hour's form token), unlike the table's hash.
        package func hashEveryField(into hasher: inout Hasher) {
            hasher.combine(session)
            hasher.combine(revision)
            hasher.combine(writeToken)
            hasher.combine(formToken)
            hasher.combine(formHour)
            hasher.combine(path)
            hasher.combine(variant)
            hasher.combine(gzip)
        }

        /// FNV-1a of `text`'s bytes: an xor and a multiplication a byte, cheap for a short
        /// path (the result is mixed with a seed, never used alone).
        private static func digest(_ text: String) -> UInt64 {
            var text = text
            return text.withUTF8 { bytes in
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                return hash
            }
        }
    }

    /// A finished page: its 200 answer (marked for the engine to prepare once) and its
    /// `ETag`, for the 304 answer to a conditional request. An object, immutable: a hit
    /// takes one reference to it, not a copy of its answer and tag.
    package final class Entry: Sendable {
        package let response: HTTPResponse
        /// Where the engine keeps its prepared head of `response` (shared by the entry's
        /// thin and filled-in forms: the same head).
        package let prepared: ResponseCache
        package let etag: String
        /// What the entry costs: the body (unless it is kept thin) and a little for the
        /// head and the key.
        let cost: Int
        /// Set when the body is a shared rendering filled in with the visitor's token: when
        /// space runs short the entry is kept thin, without its bytes, and filled in again
        /// for each answer (see `Stripe.insert`).
        let refill: Refill?

        /// What an entry costs besides its body: its headers, the head the engine prepares
        /// once (~450 bytes), the key, the objects around them and its slot in the stripe,
        /// about 1.3 KB in all, rounded up. A thin entry costs this alone: counting less
        /// would let 16 MiB of budget hold twice that in memory.
        package static let overhead = 1536
        /// What a thin entry costs.
        package static let thinCost = overhead
        /// Pages this large or larger are never thinned: the engine sends them with
        /// `sendfile` from an in-memory file it makes once for the entry (its
        /// `ResponseCache`), which dropping the entry's own bytes would not free.
        package static let largestThinnable = 16 * 1024 - 1

        /// Whether it is kept without its bytes.
        private var isThin: Bool {
            if case .empty = response.body { true } else { false }
        }

        package init(
            response: HTTPResponse, etag: String, cost: Int, refill: Refill? = nil,
            prepared: ResponseCache = ResponseCache()
        ) {
            self.response = response
            self.prepared = prepared
            self.etag = etag
            self.cost = cost
            self.refill = refill
        }

        /// The entry without the bytes it can fill in again; nil when it has none to drop.
        fileprivate var thinned: Entry? {
            guard refill != nil, !isThin else { return nil }
            var thin = response
            thin.body = .empty
            return Entry(response: thin, etag: etag, cost: Self.thinCost, refill: refill, prepared: prepared)
        }

        /// The entry as answered: whole, or a thin one filled in again; nil when a thin
        /// entry's rendering is gone (the render cache started over), which is a miss.
        fileprivate var answered: Entry? {
            guard let refill, isThin else { return self }
            guard let template = refill.template else { return nil }
            var filled = response
            filled.body = .shared(template.filled(with: refill.token))
            return Entry(response: filled, etag: etag, cost: cost, refill: refill, prepared: prepared)
        }
    }

    /// How a stored page is filled in again: the rendering it came from, held weakly (the
    /// render cache owns it and bounds how many there are), and the visitor's token. (A
    /// class: a weak reference inside a struct would make every value holding it, the
    /// request's state included, one that cannot be moved as plain bytes.)
    package final class Refill: Sendable {
        weak let template: TokenizedPage?
        let token: SessionID

        package init(template: TokenizedPage, token: SessionID) {
            self.template = template
            self.token = token
        }
    }

    /// A page rendered by a request that writes the session it shows (a visit to another
    /// tab selects it): the page of the revision that write makes, kept only once the
    /// write is stored, durable, and made that revision (see
    /// `TabServerResponder.keepAfterWrite`).
    package struct Pending: Sendable {
        package let key: Key
        package let entry: Entry
        /// The session as the page shows it: the write must store exactly this.
        package let shown: Session

        package init(key: Key, entry: Entry, shown: Session) {
            self.key = key
            self.entry = entry
            self.shown = shown
        }
    }

    /// One stripe's entries, by the key's hash: the hash is computed before the lock, so
    /// the lock is held for an integer look-up only (two engine threads serving one
    /// visitor ask the same stripe), and the key is compared after it. Two keys of one
    /// hash share a slot: the later replaces the earlier, which then misses.
    ///
    /// Past its budget a stripe first thins its oldest pages that can be filled in again
    /// (9 KB each becomes 1.5 KB), and only when thinning is not enough drops entries,
    /// oldest first: whole pages that cannot be thinned (gzip'd ones, the shared first
    /// page) and thin ones alike. So one visitor's reloads are sent as they are kept, and
    /// 2,000 visitors' pages (which 16 MiB of whole pages cannot hold: in the 80/20
    /// workload every visitor stores a page before any of them asks for it again) are
    /// still found, each filled in again for its answer.
    private struct Stripe {
        /// An object, so a look-up takes one reference out of the lock, not a copy of the
        /// key and entry (a dozen reference counts, under the lock both engine threads ask).
        final class Stored: Sendable {
            let key: Key
            let entry: Entry
            /// Which store put it here: a queue's older mention of the same hash is stale.
            let serial: Int

            init(key: Key, entry: Entry, serial: Int) {
                self.key = key
                self.entry = entry
                self.serial = serial
            }
        }

        var entries: [PrehashedKey: Stored] = [:]
        /// Entries in the order they were stored, oldest first.
        var order = SlotQueue()
        /// Entries passed over for thinning (thinned, or whole ones that cannot be), in
        /// the order they were stored: dropped from the front when thinning is not enough.
        var droppable = SlotQueue()
        var serial = 0
        var bytes = 0

        /// Returns the entries (and bodies) it drops, for the caller to release after the
        /// lock: freeing a page's bytes and head is most of an insert's cost.
        mutating func insert(_ entry: Entry, for key: Key, hash: Int, budget: Int) -> [Entry] {
            var dropped: [Entry] = []
            serial += 1
            if let old = entries.updateValue(Stored(key: key, entry: entry, serial: serial), forKey: PrehashedKey(hash))
            {
                bytes -= old.entry.cost
                dropped.append(old.entry)
            }
            order.append(hash, serial: serial)
            bytes += entry.cost
            while bytes > budget, let (oldest, serial) = order.next() {
                guard let found = entries[PrehashedKey(oldest)], found.serial == serial else { continue }
                if let thinned = found.entry.thinned {
                    entries[PrehashedKey(oldest)] = Stored(key: found.key, entry: thinned, serial: serial)
                    bytes -= found.entry.cost - thinned.cost
                    dropped.append(found.entry)
                }
                droppable.append(oldest, serial: serial)
            }
            while bytes > budget, let (oldest, serial) = droppable.next() {
                guard let found = entries[PrehashedKey(oldest)], found.serial == serial else { continue }
                entries[PrehashedKey(oldest)] = nil
                bytes -= found.entry.cost
                dropped.append(found.entry)
            }
            return dropped
        }
    }

    /// Entries (hash and serial) in arrival order, taken from the front; its taken part is
    /// dropped once it is worth dropping. A mention may name an entry since removed or
    /// replaced: the taker compares the serial.
    private struct SlotQueue {
        private var slots: [(hash: Int, serial: Int)] = []
        private var head = 0

        mutating func append(_ hash: Int, serial: Int) { slots.append((hash, serial)) }

        mutating func next() -> (hash: Int, serial: Int)? {
            guard head < slots.count else { return nil }
            defer {
                head += 1
                if head > 64, head * 2 > slots.count {
                    slots.removeFirst(head)
                    head = 0
                }
            }
            return slots[head]
        }
    }

    private final class Slot: Sendable {
        let stripe = Mutex(Stripe())
    }

    private let slots: [Slot]
    /// Look-ups that found their page, since start.
    private let hitCount = Atomic<Int>(0)
    private let stripeBudget: Int
    /// The most bytes the cache holds, over all stripes.
    package let capacity: Int

    /// A cache holding at most `capacity` bytes (0: none, every look-up misses).
    package init(capacity: Int, stripes: Int = 16) {
        self.capacity = capacity
        slots = (0..<max(1, stripes)).map { _ in Slot() }
        stripeBudget = capacity / max(1, stripes)
    }

    private func slot(for hash: Int) -> Slot {
        slots[Int(UInt(bitPattern: hash) % UInt(slots.count))]
    }

    /// The entry for `key`, if stored.
    package func entry(for key: Key) -> Entry? {
        guard capacity > 0 else { return nil }
        let hash = key.tableHash
        guard let found = slot(for: hash).stripe.withLock({ $0.entries[PrehashedKey(hash)] }), found.key == key,
            let answered = found.entry.answered
        else { return nil }
        hitCount.add(1, ordering: .relaxed)
        return answered
    }

    /// Look-ups that found their page, since start.
    package var hits: Int { hitCount.load(ordering: .relaxed) }

    /// Stores `entry`, thinning and then dropping the stripe's oldest entries past its
    /// share of the capacity (see `Stripe`). An entry larger than that share is not stored.
    package func store(_ entry: Entry, for key: Key) {
        guard entry.cost <= stripeBudget else { return }
        let hash = key.tableHash
        let dropped = slot(for: hash).stripe.withLock { $0.insert(entry, for: key, hash: hash, budget: stripeBudget) }
        _ = consume dropped  // released here, outside the lock
    }

    /// Entries and bytes held now (for tests and the metrics).
    package var footprint: (entries: Int, bytes: Int) {
        slots.reduce(into: (0, 0)) { total, slot in
            slot.stripe.withLock { stripe in
                total.0 += stripe.entries.count
                total.1 += stripe.bytes
            }
        }
    }
}
