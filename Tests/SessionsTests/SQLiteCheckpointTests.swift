// SPDX-License-Identifier: Apache-2.0
import Foundation
import Sessions
import TestSupport
import Testing

@Suite("SQLite checkpoints run in the background, not inside a request")
struct SQLiteCheckpointTests {
    func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("committed sessions reach the database file within a second, with no request waiting for it")
    func backgroundCheckpoint() throws {
        let path = TestFixtures.temporaryDirectory("checkpoint") + "/sessions.sqlite"
        let store = try SQLiteSessionStore(path: path)
        let before = fileSize(path)
        for _ in 0..<2_000 { try store.insert(Session.new(now: 1_000)) }
        #expect(fileSize(path + "-wal") > 200_000, "the commits went to the WAL")
        var moved = false
        let deadline = Date().addingTimeInterval(3)
        while !moved && Date() < deadline {
            moved = fileSize(path) > before + 200_000
            if !moved { usleep(100_000) }
        }
        #expect(moved, "the background checkpoint copied the WAL into the file")
        #expect(try store.count() == 2_000)
    }
}
