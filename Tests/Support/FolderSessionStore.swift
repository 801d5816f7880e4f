// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerSessions

/// A session store written as an app would write its own, against the public
/// `SessionStore` protocol alone: one file per session in a folder, named by the session's
/// id, holding its revision and its `SessionCodec` bytes. Writes replace the file whole
/// (written beside it, then renamed), and the actor makes each compare-and-set one step.
/// One process at a time; the conformance suite holds it to the built-in stores' rules.
public actor FolderSessionStore: SessionStore {
    /// The folder the files are in.
    public let folder: String
    private let lifetime: SessionLifetime

    /// A store in `folder` (created with its parents when missing).
    public init(folder: String, lifetime: SessionLifetime) throws(SessionStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SessionStoreError("cannot create the session folder \(folder): \(error)")
        }
        self.folder = folder
        self.lifetime = lifetime
    }

    private func path(_ id: SessionID) -> String { folder + "/" + id.text + ".session" }

    /// The stored session of `id` whatever its age; nil when there is none.
    private func read(_ id: SessionID) throws(SessionStoreError) -> Session? {
        guard let data = FileManager.default.contents(atPath: path(id)) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { throw SessionStoreError("session file \(path(id)) is cut short") }
        let revision = bytes[..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        return try SessionCodec.decode(Array(bytes[8...]), id: id, revision: revision)
    }

    private func write(_ session: Session) throws(SessionStoreError) {
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: session.revision >> ($0 * 8)) }
        bytes += SessionCodec.encode(session)
        let file = path(session.id)
        let temporary = file + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)),
            rename(temporary, file) == 0
        else { throw SessionStoreError("cannot write \(file)") }
    }

    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        guard let session = try read(id), !lifetime.isExpired(session, now: now) else { return nil }
        return session
    }

    public func insert(_ session: Session) throws(SessionStoreError) {
        try write(session)
    }

    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        guard let stored = try read(session.id), stored.revision == session.revision else { return nil }
        let next = session.withRevision(session.revision + 1)
        try write(next)
        return next
    }

    public func delete(_ id: SessionID) throws(SessionStoreError) {
        unlink(path(id))
    }

    public func sweep(now: Int64) throws(SessionStoreError) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where name.hasSuffix(".session") {
            guard let id = SessionID(cookieValue: name.dropLast(".session".count)) else { continue }
            if let session = try? read(id), lifetime.isExpired(session, now: now) {
                unlink(path(id))
                removed += 1
            }
        }
        return removed
    }

    public func checkReady() -> Bool {
        access(folder, W_OK) == 0
    }
}

extension FolderSessionStore: BackingUpSessionStore {
    /// The folder: the operator's token is written beside it.
    public nonisolated var path: String { folder }

    /// Copies every session file into the folder `destination`. Each file is replaced
    /// whole by a rename, so each copy holds one revision of its session.
    public nonisolated func writeBackup(to destination: String) throws(SessionStoreError) -> Int {
        do {
            let files = FileManager.default
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            let names = try files.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".session") }
            for name in names { try files.copyItem(atPath: folder + "/" + name, toPath: destination + "/" + name) }
            return names.count
        } catch {
            throw SessionStoreError("backup of \(folder) to \(destination): \(error)")
        }
    }
}
