// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerSQLite
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

@Suite("SQLite session store: online backup")
struct SQLiteSessionStoreBackupTests {
    @Test("a backup in small steps lets writes commit meanwhile and holds every write acknowledged before it began")
    func writesGoOn() throws {
        let folder = TestFixtures.temporaryDirectory("sqlite-backup")
        let store = try SQLiteSessionStore(path: folder + "/sessions.sqlite")
        var early: [SessionID] = []
        for _ in 0..<2_000 {
            let session = Session.new(now: 1_000)
            try store.insert(session)
            early.append(session.id)
        }
        try store.waitUntilDurable(early)
        let acknowledged = Mutex<[SessionID]>([])
        let stop = Atomic<Bool>(false)
        let writer = DispatchGroup()
        DispatchQueue.global().async(group: writer) {
            while !stop.load(ordering: .relaxed) {
                let session = Session.new(now: 1_000)
                // Acknowledged once committed, as the app answers a visitor.
                guard (try? store.insert(session)) != nil, (try? store.waitUntilDurable([session.id])) != nil else {
                    return
                }
                acknowledged.withLock { $0.append(session.id) }
            }
        }
        #expect(waitUntil(.seconds(10)) { acknowledged.withLock { $0.count } >= 50 })
        let before = early + acknowledged.withLock { $0 }
        // Between two steps of the copy a write is committed, and waited for: if the copy
        // held the store's lock throughout, it would never be.
        let during = Session.new(now: 1_000)
        let committedDuring = Mutex<Bool?>(nil)
        var steps = 0
        let pages = try store.backup(to: folder + "/copy.sqlite", pagesPerStep: 4) {
            steps += 1
            guard steps == 10 else { return }
            let done = DispatchSemaphore(value: 0)
            guard (try? store.insert(during)) != nil else { return committedDuring.withLock { $0 = false } }
            let waiting = store.whenDurable([during.id]) { error in
                committedDuring.withLock { $0 = error == nil }
                done.signal()
            }
            if waiting && done.wait(timeout: .now() + 10) == .timedOut { committedDuring.withLock { $0 = false } }
            if !waiting { committedDuring.withLock { $0 = true } }
        }
        stop.store(true, ordering: .relaxed)
        writer.wait()
        #expect(pages > 100, "a file of many steps: \(pages) pages in \(steps) steps")
        #expect(committedDuring.withLock { $0 } == true, "a write committed while the copy was being made")

        let copy = try SQLiteSessionStore(path: folder + "/copy.sqlite")
        #expect(try copy.load(during.id, now: 1_001) != nil, "the write made during the copy is carried into it")
        let missing = try before.filter { id throws(SessionStoreError) in try copy.load(id, now: 1_001) == nil }
        #expect(missing.isEmpty, "\(missing.count) of \(before.count) acknowledged sessions missing from the copy")
        #expect(try copy.integrityCheck())
    }
}
