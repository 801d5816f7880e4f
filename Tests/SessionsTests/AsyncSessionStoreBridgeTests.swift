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

    /// A store that notes the thread each of its calls ran on, kept in memory.
    actor ThreadNotingStore: SessionStore {
        let threads = Mutex<[pthread_t]>([])
        var sessions: [SessionID: Session] = [:]

        private func note() { threads.withLock { $0.append(pthread_self()) } }

        func load(_ id: SessionID, now: Int64) -> Session? {
            note()
            return sessions[id]
        }
        func insert(_ session: Session) {
            note()
            sessions[session.id] = session
        }
        func update(_ session: Session) -> Session? {
            note()
            guard sessions[session.id]?.revision == session.revision else { return nil }
            let stored = session.withRevision(session.revision + 1)
            sessions[session.id] = stored
            return stored
        }
        func delete(_ id: SessionID) { sessions[id] = nil }
        func sweep(now: Int64) -> Int { 0 }
        func checkReady() -> Bool { true }
    }

    @Test("its calls run on the work lane that waits for them, an actor's too: no thread of the pool is needed")
    func onTheCallingThread() async throws {
        let store = ThreadNotingStore()
        let bridged = AsyncSessionStoreBridge(store)
        let session = Session.new(now: 1_000)
        // A work lane's calls, from a thread of its own (the pool's threads are not it).
        let outcome = Mutex<(lane: pthread_t?, loaded: Session?, stored: Session?)>((nil, nil, nil))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let lane = Thread {
                try? bridged.insert(session)
                let loaded = try? bridged.load(session.id, now: 1_000)
                let stored = try? bridged.update(session)
                outcome.withLock { $0 = (pthread_self(), loaded, stored ?? nil) }
                done.resume()
            }
            lane.start()
        }
        let (lane, loaded, stored) = outcome.withLock { $0 }
        #expect(loaded == session)
        #expect(stored?.revision == session.revision + 1)
        let threads = store.threads.withLock { $0 }
        #expect(threads.count == 3)
        #expect(threads.allSatisfy { pthread_equal($0, lane!) != 0 }, "every call ran on the lane's own thread")
    }
}
