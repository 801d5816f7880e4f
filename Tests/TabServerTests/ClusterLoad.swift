// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerTestSupport
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Visitors selecting tabs on `app` from threads of their own, and a probe visitor whose
/// writes and reads are timed, until `finish()`.
final class ClusterLoad: Sendable {
    typealias Visitor = RedisSentinelFailoverTests.Visitor
    typealias Timeline = RedisSentinelFailoverTests.Timeline

    /// The probe visitor's writes and reads (the same session).
    let writes = Timeline()
    let reads = Timeline()
    private let probe = Mutex<String?>(nil)
    private let stop = Atomic<Bool>(false)
    private let visitors = Mutex<[Visitor]>([])
    private let running = Atomic<Int>(0)

    /// Starts `count` visitors and the probe. `stopAtFirstRefusal`: a visitor stops at its
    /// first refused write (which may or may not have been applied); else it goes on, and
    /// only a refusal after its last acknowledged write leaves its outcome open.
    init(app: Application, visitors count: Int, stopAtFirstRefusal: Bool) {
        let responder = app.responder
        let tabs = ["tv", "movies", "podcasts", "music"]
        for _ in 0..<count {
            spawn { [self] in
                let client = TestClient(responder)
                var visitor = Visitor()
                guard let token = await client.get("/tabs/music").csrfToken else { return }
                visitor.cookie = client.cookies["tabserver_session"] ?? ""
                var turn = 0
                while !stop.load(ordering: .relaxed) {
                    let tab = tabs[turn % tabs.count]
                    turn += 1
                    if await client.post("/select", form: [("csrf", token), ("tab", tab)]).status == 303 {
                        visitor.acknowledged += 1
                        visitor.lastAcknowledgedTab = tab
                        visitor.refusedTab = nil
                    } else {
                        visitor.refusedTab = tab
                        if stopAtFirstRefusal { break }
                    }
                    // Room on two shared cores for six Redis nodes to answer in time.
                    usleep(2_000)
                }
                visitors.withLock { $0.append(visitor) }
            }
        }
        let ready = Atomic<Bool>(false)
        spawn { [self] in
            let client = TestClient(responder)
            guard let token = await client.get("/tabs/music").csrfToken else { return }
            probe.withLock { $0 = client.cookies["tabserver_session"] }
            ready.store(true, ordering: .relaxed)
            var turn = 0
            while !stop.load(ordering: .relaxed) {
                turn += 1
                await writes.record(
                    client.post("/select", form: [("csrf", token), ("tab", tabs[turn % tabs.count])]).status == 303)
                usleep(5_000)
            }
        }
        _ = waitUntil(.seconds(10)) { ready.load(ordering: .relaxed) }
        spawn { [self] in
            let client = TestClient(responder)
            client.cookies["tabserver_session"] = probe.withLock { $0 }
            while !stop.load(ordering: .relaxed) {
                await reads.record(client.get("/tabs/music").status == 200)
                usleep(5_000)
            }
        }
    }

    /// The probe visitor's cookie.
    var probeCookie: String? { probe.withLock { $0 } }

    /// Stops everyone (waits at most 30 s) and returns what each visitor did.
    @discardableResult
    func finish() -> [Visitor] {
        stop.store(true, ordering: .relaxed)
        _ = waitUntil(.seconds(30), every: .milliseconds(10)) { running.load(ordering: .relaxed) == 0 }
        return visitors.withLock { $0 }
    }

    private func spawn(_ body: @escaping @Sendable () async -> Void) {
        running.wrappingAdd(1, ordering: .relaxed)
        // A thread each: the clients block on their calls.
        let executor = ThreadExecutor()
        Task(executorPreference: executor) { [self] in
            await body()
            running.wrappingSubtract(1, ordering: .relaxed)
            executor.stop()
        }
    }
}
