// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSQLite
import TabServerTesting
import TabServerThreads
import Testing

/// Long SQLite work of an app's own stops when the request awaiting it is cancelled.
@Suite("SQLite work interrupted when its task is cancelled")
struct SQLiteInterruptTests {
    /// What the query running on the pool saw.
    final class Run: Sendable {
        let started = Atomic<Bool>(false)
        let outcome = Mutex<String?>(nil)
    }

    /// Counts to a billion, row by row: minutes of work unless stopped.
    static let endless =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"

    /// A new database in a folder named after `name`, a pool of `lanes`, a new `Run`.
    static func setUp(_ name: String, lanes: Int) throws -> (SharedSQLiteDatabase, BlockingPool, Run) {
        let db = try SharedSQLiteDatabase(path: TestFixtures.temporaryDirectory(name) + "/app.sqlite")
        return (db, BlockingPool(lanes: lanes, capacity: 4), Run())
    }

    @Test("a query counting to a billion stops with SQLITE_INTERRUPT once its task is cancelled; the connection lives")
    func cancelledQuery() async throws {
        let (db, pool, run) = try Self.setUp("interrupt", lanes: 1)
        let task = Task {
            try await db.interruptible { scope in
                try await pool.runCancellable {
                    run.started.store(true, ordering: .relaxed)
                    do throws(SQLiteError) {
                        _ = try scope.use { (db) throws(SQLiteError) in try db.query(Self.endless) }
                        run.outcome.withLock { $0 = "finished" }
                    } catch {
                        run.outcome.withLock { $0 = "code \(error.code)" }
                    }
                }
            }
        }
        #expect(await waitUntil(.seconds(60)) { () async in run.started.load(ordering: .relaxed) })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await waitUntil(.seconds(120)) { () async in run.outcome.withLock { $0 } != nil })
        let outcome = run.outcome.withLock { $0 }
        #expect(outcome == "code 9", "the query was interrupted, not run to its end")
        // The same connection serves the next call (asked only once the query ended: it
        // holds the connection until then).
        if outcome != nil { #expect(try db.query("SELECT 1 + 1").first?.first == .integer(2)) }
    }

    @Test("a statement begun after its operation was cancelled stops at once; the next call runs")
    func cancelledBeforeStart() async throws {
        let db = try SharedSQLiteDatabase(path: TestFixtures.temporaryDirectory("interrupt-early") + "/app.sqlite")
        let outcome = try await Task {
            try await db.interruptible { scope in
                // Cancelled before its statement holds the connection: `sqlite3_interrupt`
                // alone would have nothing to stop, and the count would run for minutes.
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(SQLiteError) {
                    _ = try scope.use { (db) throws(SQLiteError) in try db.query(Self.endless) }
                    return "finished"
                } catch {
                    return "code \(error.code)"
                }
            }
        }.value
        #expect(outcome == "code 9")
        #expect(try db.query("SELECT 2 + 2").first?.first == .integer(4))
    }

    @Test("a cancelled operation waiting for the connection interrupts nobody else's statement")
    func othersUntouched() async throws {
        let (db, pool, run) = try Self.setUp("interrupt-others", lanes: 2)
        // Another caller's query, not of the scope, holding the connection a while.
        let other = Task {
            try await pool.run(key: 0) { () throws -> String in
                run.started.store(true, ordering: .relaxed)
                let rows = try db.query(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) FROM c"
                )
                return "\(rows.first?.first ?? .null)"
            }
        }
        #expect(await waitUntil(.seconds(60)) { () async in run.started.load(ordering: .relaxed) })
        let waiting = Task {
            try await db.interruptible { scope in
                try await pool.runCancellable(key: 1) {
                    try scope.use { (db) throws(SQLiteError) in try db.query("SELECT 1") }
                }
            }
        }
        waiting.cancel()
        _ = try? await waiting.value
        #expect(try await other.value == "integer(20000000)", "the other caller's query ran to its end")
    }

    @Test("an interrupt with no statement running changes nothing")
    func idleInterrupt() throws {
        let db = try SharedSQLiteDatabase(path: TestFixtures.temporaryDirectory("interrupt-idle") + "/app.sqlite")
        db.interrupt()
        #expect(try db.query("SELECT 40 + 2").first?.first == .integer(42))
    }
}
