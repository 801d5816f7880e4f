// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

extension SessionStoreRegistry {
    /// The stores every app can open: memory, and SQLite (the default store,
    /// `SessionStoreConfiguration.standard`). Redis is added by the app that links it.
    public static let standard: SessionStoreRegistry = {
        var registry = SessionStoreRegistry()
        registry.register(scheme: "sqlite", SQLiteSessionStore.opener)
        return registry
    }()
}

extension SQLiteSessionStore {
    /// Opens `.sqlite(path:maxSessions:)`: the file and its folders are created on first run.
    public static let opener: SessionStoreRegistry.Opener = { configuration, opening throws(SessionStoreError) in
        guard case .sqlite(let path, let maxSessions) = configuration else {
            throw SessionStoreRegistry.mismatch(configuration, "sqlite")
        }
        guard maxSessions >= 1 else {
            throw SessionStoreError("the SQLite session store needs room for at least 1 session")
        }
        return (
            try SQLiteSessionStore(
                path: path, lifetime: opening.lifetime, maxSessions: maxSessions, log: opening.healthLog),
            nil
        )
    }
}
