// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// The engine calls an app's store (one that adopts only `SessionStore`) through a bridge,
/// on a work lane that waits for each call: the call's task runs on that thread itself.
@Suite("An app's async store, as the engine calls it")
struct AsyncSessionStoreBridgeTests {
    @Test("a built-in store is called directly; an app's own is bridged and answers nothing from memory")
    func engineView() throws {
        let memory = MemorySessionStore(capacity: 10)
        #expect(AsyncSessionStoreBridge.engineView(of: memory) as? MemorySessionStore === memory)
        let folder = try FolderSessionStore(
            folder: TestFixtures.temporaryDirectory("bridge") + "/sessions", lifetime: SessionLifetime())
        let bridged = AsyncSessionStoreBridge.engineView(of: folder)
        #expect(bridged.opened as? FolderSessionStore === folder)
        #expect(!bridged.readsEverythingAtOnce && !bridged.insertsAtOnce && bridged.waitsForUsers)
        #expect(!bridged.commitsInGroups && !bridged.answersLater)
        let session = Session.new(now: 1_000)
        #expect(!bridged.readsAtOnce(session.id, now: 1_000))
        #expect(bridged.heldCopy(session.id, now: 1_000) == nil)
    }

    @Test("its calls complete while every thread of the cooperative pool is held")
    func withoutThePool() throws {
        let folder = try FolderSessionStore(
            folder: TestFixtures.temporaryDirectory("bridge-pool") + "/sessions", lifetime: SessionLifetime())
        let bridged = AsyncSessionStoreBridge(folder)
        // The pool has a thread per core; this test, synchronous, holds one of them.
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        final class Hold: Sendable {
            let holding = Atomic<Int>(0)
            let tooLong = Atomic<Bool>(false)
            let release = DispatchSemaphore(value: 0)
        }
        let hold = Hold()
        // Tasks that hold a pool thread each until released (ten minutes at most).
        for _ in 0..<width {
            Task.detached {
                hold.holding.add(1, ordering: .relaxed)
                if hold.release.wait(timeout: .now() + 600) == .timedOut {
                    hold.tooLong.store(true, ordering: .relaxed)
                }
            }
        }
        defer { for _ in 0..<width { hold.release.signal() } }
        #expect(waitUntil(.seconds(120)) { hold.holding.load(ordering: .relaxed) == width }, "the pool is held")

        // A work lane's call, made while no pool thread is free.
        let session = Session.new(now: 1_000)
        let outcome = Mutex<Session?>(nil)
        let done = DispatchSemaphore(value: 0)
        let lane = Thread {
            try? bridged.insert(session)
            outcome.withLock { $0 = try? bridged.load(session.id, now: 1_000) }
            done.signal()
        }
        lane.start()
        done.wait()
        let answeredLate = hold.tooLong.load(ordering: .relaxed)
        #expect(!answeredLate, "answered while the pool was still held")
        #expect(outcome.withLock { $0 } == session)
    }
}
