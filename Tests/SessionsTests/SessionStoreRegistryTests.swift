// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerRedisConfiguration
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

@Suite("Session store registry")
struct SessionStoreRegistryTests {
    let lifetime = SessionLifetime(idle: 60, absolute: 600)

    func open(_ configuration: SessionStoreConfiguration, in registry: SessionStoreRegistry) throws(SessionStoreError)
        -> SessionStoreRegistry.Opened
    {
        try registry.open(configuration, lifetime: lifetime, healthLog: { _, _ in }, log: .standardError)
    }

    @Test("a bare registry opens memory stores only, and names what adds the others")
    func bare() throws {
        let registry = SessionStoreRegistry()
        let opened = try open(.memory(capacity: 3), in: registry)
        #expect(opened.store is MemorySessionStore)
        #expect(opened.relay == nil)
        #expect(registry.contains(scheme: "memory"))
        #expect(!registry.contains(scheme: "sqlite"))
        let sqlite = #expect(throws: SessionStoreError.self) {
            try open(.sqlite(path: "never-made.sqlite"), in: registry)
        }
        #expect(sqlite?.reason.contains("SessionStoreRegistry.standard") == true)
        let redis = #expect(throws: SessionStoreError.self) {
            try open(.redis(RedisConfiguration(host: "127.0.0.1")), in: registry)
        }
        #expect(redis?.reason.contains("app.redis(.standard)") == true)
    }

    @Test("the standard registry opens the default store, SQLite, on a real file")
    func standard() throws {
        let path = TestFixtures.temporaryDirectory("registry") + "/data/sessions.sqlite"
        let opened = try open(.sqlite(path: path), in: .standard)
        let store = try #require(opened.store as? SQLiteSessionStore)
        #expect(store.path == path)
        #expect(SessionStoreConfiguration.standard.scheme == "sqlite")
        #expect(!SessionStoreRegistry.standard.contains(scheme: "redis"))
    }

    @Test("openers refuse sizes a store cannot hold, saying which")
    func sizes() {
        let memory = #expect(throws: SessionStoreError.self) { try open(.memory(capacity: 0), in: .standard) }
        #expect(memory?.reason == "the memory session store needs a capacity of at least 1")
        let sqlite = #expect(throws: SessionStoreError.self) {
            try open(.sqlite(path: "unused.sqlite", maxSessions: 0), in: .standard)
        }
        #expect(sqlite?.reason == "the SQLite session store needs room for at least 1 session")
    }

    @Test("a registered opener replaces the one before for its scheme")
    func replaces() throws {
        var registry = SessionStoreRegistry.standard
        let mine = MemorySessionStore(capacity: 7)
        registry.register(scheme: "sqlite") { _, _ in (mine, nil) }
        let opened = try open(.sqlite(path: "not-opened.sqlite"), in: registry)
        #expect(opened.store as? MemorySessionStore === mine)
    }

    @Test("the Redis opener registers under redis and refuses other stores")
    func redisOpener() throws {
        let opener = RedisStoreOpener { _, _, lifetime, _, _ in
            (MemorySessionStore(capacity: 1, lifetime: lifetime), NoRelay())
        }
        var registry = SessionStoreRegistry()
        registry.register(scheme: "redis", opener.opener)
        let opened = try open(.redis(RedisConfiguration(host: "127.0.0.1")), in: registry)
        #expect(opened.relay is NoRelay)
        registry.register(scheme: "memory", opener.opener)
        let mismatch = #expect(throws: SessionStoreError.self) { try open(.memory(), in: registry) }
        #expect(mismatch?.reason == "the redis opener cannot open memory")
    }
}

/// A relay that carries nothing: enough to tell which opener made it.
private struct NoRelay: EventRelay {
    func start(deliver: @escaping @Sendable ([UInt8]) -> Void) {}
    func publish(_ payload: [UInt8]) {}
    func stop() {}

    @Test("--sessions is read by its scheme, whatever its case; an app's scheme may start like a built-in one")
    func schemes() throws {
        #expect(try SessionStoreConfiguration("SQLite:data/x.sqlite") == .sqlite(path: "data/x.sqlite"))
        #expect(try SessionStoreConfiguration("Memory") == .memory())
        #expect(try SessionStoreConfiguration("redisjson://cache/1") == .url("redisjson://cache/1"))
        #expect(try SessionStoreConfiguration("redisjson://cache/1").scheme == "redisjson")
        #expect(try SessionStoreConfiguration("Folder:/var/s").scheme == "folder")
        #expect(try SessionStoreConfiguration("Folder:/var/s").location == "/var/s")
        #expect(throws: ConfigurationError.self) { try SessionStoreConfiguration("rediss://secure:6379") }
    }
}
