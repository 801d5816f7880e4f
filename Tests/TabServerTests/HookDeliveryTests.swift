// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTabBar
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("Hooks fire once, after the state they describe is committed")
struct HookDeliveryTests {
    /// Counts each observer call, by event.
    final class Counter: Sendable {
        let calls = Mutex<[String]>([])
        func record(_ event: String) { calls.withLock { $0.append(event) } }
        var events: [String] { calls.withLock { $0 } }
    }

    func app(interferences: Int, counter: Counter) throws -> (Application, InterferingSessionStore) {
        var hooks = demoHooks()
        hooks.didSelect = { tab, state in counter.record("didSelect \(tab.id) selected=\(state.selectedTabID ?? "-")") }
        hooks.willBeginCustomizing = { _ in counter.record("willBegin") }
        hooks.didEndCustomizing = { _, changed in counter.record("didEnd changed=\(changed)") }
        let store = InterferingSessionStore(
            MemorySessionStore(capacity: 100, lifetime: SessionLifetime()), interferences: interferences)
        let app = try buildApplication(
            sevenTabConfiguration(), content: DemoCatalog(), hooks: hooks, sessionStore: store, log: quietLog)
        return (app, store)
    }

    @Test("didSelect fires once although the write conflicted three times")
    func didSelectOnce() async throws {
        let counter = Counter()
        let (app, store) = try app(interferences: 0, counter: counter)
        let client = TestClient(app.responder)
        // Visiting Movies stores a session, so the select below updates it (and can conflict).
        let token = try await #require(client.get("/tabs/movies").csrfToken)
        store.arm(3)
        let response = await client.post("/select", form: [("csrf", token), ("tab", "music")])
        #expect(response.status == 303)
        #expect(store.conflicts.load(ordering: .relaxed) == 3, "the request really was re-run")
        #expect(counter.events == ["didSelect music selected=music"])
        await #expect(client.follow(response).currentTabID == "music")
    }

    @Test("customizing hooks fire once each under conflicts, with the committed result")
    func customizingOnce() async throws {
        let counter = Counter()
        let (app, store) = try app(interferences: 0, counter: counter)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/movies")
        store.arm(2)
        let edit = await client.get("/more/edit")
        #expect(edit.status == 200)
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        store.arm(2)
        await #expect(
            client.post(
                "/more/edit", form: [("csrf", token), ("version", version), ("action", "down"), ("tab", "music")]
            )
            .status == 303)
        store.arm(2)
        await #expect(client.post("/more/edit", form: [("csrf", token), ("action", "done")]).status == 303)
        #expect(counter.events == ["willBegin", "didEnd changed=true"])
        #expect(store.conflicts.load(ordering: .relaxed) == 6)
    }

    @Test("a request that fails to commit tells no observer")
    func noEventWithoutCommit() async throws {
        let counter = Counter()
        let (app, store) = try app(interferences: 0, counter: counter)
        let client = TestClient(app.responder)
        let token = try await #require(client.get("/tabs/movies").csrfToken)
        store.arm(1000)  // every attempt loses: the app gives up with 409
        let response = await client.post("/select", form: [("csrf", token), ("tab", "music")])
        #expect(response.status == 409)
        #expect(counter.events.isEmpty)
    }

    @Test("64 concurrent selects on one session all answer 303, each observed once")
    func concurrentSelects() async throws {
        let counter = Counter()
        let (app, _) = try app(interferences: 0, counter: counter)
        let client = TestClient(app.responder)
        let token = try await #require(client.get("/tabs/movies").csrfToken)
        let cookie = try #require(client.cookies["tabserver_session"])
        let statuses = Mutex<[Int]>([])
        let responder = app.responder
        await onThreads(64) { index in
            let visitor = TestClient(responder)
            visitor.cookies["tabserver_session"] = cookie
            let tab = ["music", "movies", "tv", "featured"][index % 4]
            let status = await visitor.post("/select", form: [("csrf", token), ("tab", tab)]).status
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 303 })
        #expect(counter.events.count == 64)
    }

    /// `tabserver_hook_events_total` from `/metrics`.
    func queued(_ client: TestClient) async -> Int {
        let name = "tabserver_hook_events_total"
        for line in await client.get("/metrics").body.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }

    @Test("without an observer hook no event is queued; with one, each tap's event is")
    func queuedOnlyForObservers() async throws {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        for observed in [false, true] {
            let counter = Counter()
            var hooks = demoHooks()  // a veto only
            if observed { hooks.didSelect = { tab, _ in counter.record(tab.id) } }
            let app = try buildApplication(configuration, content: DemoCatalog(), hooks: hooks, log: quietLog)
            let client = TestClient(app.responder)
            let token = try await #require(client.get("/tabs/movies").csrfToken)
            for tab in ["music", "tv", "featured"] {
                await #expect(client.post("/select", form: [("csrf", token), ("tab", tab)]).status == 303)
            }
            #expect(app.responder.finishHooks(within: .seconds(5)))
            await #expect(queued(client) == (observed ? 3 : 0))
            #expect(counter.events == (observed ? ["music", "tv", "featured"] : []))
        }
    }
}
