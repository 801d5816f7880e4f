// SPDX-License-Identifier: Apache-2.0
import Foundation
import SQLite
import Synchronization
import TestSupport
import Testing

@testable import Sessions

/// Issue #10: writes that fail (a full disk, a read-only file) make the store not
/// ready, logged once, until a write succeeds again.
///
/// The failure is injected with `PRAGMA query_only` on the store's own connection
/// (`setQueryOnly`), which makes SQLite refuse every write with `SQLITE_READONLY`, as a
/// read-only file does, while reads go on. A `chmod` cannot do it: the tests run as root,
/// which ignores file permissions; and a full tmpfs needs `mount`, which CI containers
/// usually may not do.
@Suite("SQLite session store when writes fail", .serialized)
struct SQLiteSessionStoreHealthTests {
    /// Log lines, collected in memory.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func log(_ message: String, _ isFailure: Bool) {
            lines.withLock { $0.append((isFailure ? "error " : "info ") + message) }
        }
    }

    func freshPath() -> String { TestFixtures.temporaryDirectory("sqlite-health") + "/sessions.sqlite" }

    @Test("read-only: every write fails, reads go on, not ready; one line down, one line up")
    func readOnly() throws {
        let lines = Lines()
        let store = try SQLiteSessionStore(path: freshPath(), log: lines.log)
        let kept = Session.new(now: 1_000)
        try store.insert(kept)
        #expect(store.checkReady())

        store.setQueryOnly(true)
        #expect(store.checkReady(), "a read alone does not notice that writes fail")
        for _ in 0..<20 {
            // Accepted here, refused by the commit: whoever waits hears it, and it is undone.
            let lost = Session.new(now: 1_000)
            try store.insert(lost)
            #expect(throws: SessionStoreError.self) { try store.flush() }
            #expect(try store.load(lost.id, now: 1_000) == nil)
        }
        var changed = kept
        changed.language = "de"
        #expect(try store.update(changed) != nil)
        #expect(throws: SessionStoreError.self) { try store.flush() }
        #expect(!store.checkReady())
        #expect(try store.load(kept.id, now: 1_000)?.language == nil, "reads still work; the write was undone")
        #expect(lines.all.count == 1, "\(lines.all)")
        #expect(lines.all.first?.hasPrefix("error tabserver: session store sqlite:") == true)
        #expect(lines.all.first?.contains("readonly") == true, "\(lines.all)")

        // Writable again: the background probe notices without any request.
        store.setQueryOnly(false)
        #expect(waitUntil(.seconds(3), every: .milliseconds(20)) { store.checkReady() })
        #expect(lines.all.count == 2, "\(lines.all)")
        #expect(lines.all.last?.hasPrefix("info tabserver: session store sqlite:") == true)
        #expect(lines.all.last?.contains("works again") == true)
        try store.insert(Session.new(now: 1_001))
        #expect(lines.all.count == 2)
    }

    @Test("the next successful write ends the outage at once")
    func writeEndsOutage() throws {
        let lines = Lines()
        let store = try SQLiteSessionStore(path: freshPath(), log: lines.log)
        store.setQueryOnly(true)
        try store.insert(Session.new(now: 1_000))
        #expect(throws: SessionStoreError.self) { try store.flush() }
        #expect(!store.checkReady())
        store.setQueryOnly(false)
        try store.insert(Session.new(now: 1_000))
        #expect(store.checkReady())
        #expect(lines.all.count == 2, "\(lines.all)")
    }
}
