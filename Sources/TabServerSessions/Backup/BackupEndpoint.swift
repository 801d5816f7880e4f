// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Synchronization
import TabServerCrypto
import TabServerHTTP
import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// `POST /admin/backup?to=PATH`: writes a consistent copy of the running store to PATH (an
/// absolute path on this machine) while the server keeps serving, for a store that can
/// (`BackingUpSessionStore`: the SQLite store, which holds its file in
/// `locking_mode = EXCLUSIVE`, so no other process can read it). The server copies it
/// itself, on a thread of its own, never an engine thread, and answers once the copy is
/// complete.
///
/// Only for a direct peer on loopback (not a request a proxy relayed: it carries
/// `Forwarded` or `X-Forwarded-For`) that shows the token the server wrote at start to
/// `<store file>.admin-token` (mode 0600) as `Authorization: Bearer <token>`: whoever
/// may read the data folder may back it up. `tabserver backup DEST` does all this for a
/// SQLite store.
package final class BackupEndpoint: Sendable {
    /// Where it answers (at the root, whatever the base path).
    package static let path = "/admin/backup"

    private let store: any BackingUpSessionStore
    private let token: [UInt8]
    private let log: LogSink?
    private let running = Atomic<Bool>(false)

    /// The token file of the store at `storePath`.
    package static func tokenPath(for storePath: String) -> String { storePath + ".admin-token" }

    /// The endpoint for `store` when the store it opened can back itself up and its
    /// token file could be written (said in `log` when not); nil otherwise.
    package init?(store: any EngineSessionStore, log: LogSink?) {
        guard let store = store.opened as? any BackingUpSessionStore else { return nil }
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let file = Self.tokenPath(for: store.path)
        unlink(file)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let written =
            descriptor >= 0
            && Array(token.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == token.utf8.count
        if descriptor >= 0 { close(descriptor) }
        guard written else {
            log?.write("cannot write \(file): online backups are off", level: .warn)
            return nil
        }
        self.store = store
        self.token = Array(token.utf8)
        self.log = log
    }

    /// The answer to a request for `path`, once the copy is written (on a thread of its
    /// own: a copy of a large file takes a while, and must not hold a lane of the pool).
    package func answer(_ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == .post else {
            var response = HTTPResponse.text("Only POST is allowed here.\n", status: .methodNotAllowed)
            response.headers.add("Allow", "POST")
            return response
        }
        guard isDirectLoopbackPeer(request) else {
            return .text("Backups are only made for this machine.\n", status: .forbidden)
        }
        guard hasToken(request) else {
            return .text("Show the token of \(Self.tokenPath(for: store.path)).\n", status: .forbidden)
        }
        guard let destination = request.queryValue("to"), destination.hasPrefix("/") else {
            return .text("Name the copy with ?to=/absolute/path.\n", status: .badRequest)
        }
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return .text("A backup is being written already.\n", status: .conflict)
        }
        let store = store
        let log = log
        return await withUnsafeContinuation { continuation in
            WorkerThread.detach {
                let started = ContinuousClock.now
                let response: HTTPResponse
                do throws(SessionStoreError) {
                    let pages = try store.writeBackup(to: destination)
                    let message =
                        "backup of \(store.path) written to \(destination): \(pages) pages in \(ContinuousClock.now - started)"
                    log?.write(message)
                    response = .text(message + "\n")
                } catch {
                    log?.write("\(error)", level: .error)
                    response = .text("\(error)\n", status: .internalServerError)
                }
                self.running.store(false, ordering: .releasing)
                continuation.resume(returning: response)
            }
        }
    }

    private func isDirectLoopbackPeer(_ request: HTTPRequest) -> Bool {
        let peer = request.remoteAddress
        let isLoopback = peer.hasPrefix("127.") || peer == "::1" || peer.hasPrefix("::ffff:127.")
        return isLoopback && request.headers["forwarded"] == nil && request.headers["x-forwarded-for"] == nil
    }

    /// Compares in time independent of where the bytes differ.
    private func hasToken(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers["authorization"], value.hasPrefix("Bearer ") else { return false }
        let shown = Array(value.utf8.dropFirst(7))
        guard shown.count == token.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(shown, token) { difference |= left ^ right }
        return difference == 0
    }
}
