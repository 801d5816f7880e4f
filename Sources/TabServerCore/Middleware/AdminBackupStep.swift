// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// The library's step for `POST /admin/backup` (a SQLite store only; see
/// `BackupEndpoint`): answered at the root, before the base path and the sessions.
struct AdminBackupStep: Middleware, CustomStringConvertible {
    let backup: BackupEndpoint

    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        guard request.path == BackupEndpoint.path else { return next(request) }
        return backup.answer(request)
    }

    var description: String { "admin backup" }
}
