// SPDX-License-Identifier: Apache-2.0
import Dispatch
import SQLite
import Sessions
import Synchronization
import TestSupport
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
        let countAtStart = before.count - early.count
        let pages = try store.backup(to: folder + "/copy.sqlite", pagesPerStep: 4)
        let countAtEnd = acknowledged.withLock { $0.count }
        stop.store(true, ordering: .relaxed)
        writer.wait()
        #expect(pages > 100, "a file of many steps: \(pages) pages")
        #expect(countAtEnd > countAtStart, "writes committed while the copy was made")

        let copy = try SQLiteSessionStore(path: folder + "/copy.sqlite")
        let missing = try before.filter { id throws(SessionStoreError) in try copy.load(id, now: 1_001) == nil }
        #expect(missing.isEmpty, "\(missing.count) of \(before.count) acknowledged sessions missing from the copy")
        #expect(try copy.integrityCheck())
    }
}
