// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerTabBar

/// Format 1, the JSON that earlier versions wrote: read only, so sessions stored before
/// an upgrade keep working (they are written back in the binary form on their next change).
extension SessionCodec {
    private struct StoredJSON: Decodable {
        var format: Int
        var csrf: String
        var state: TabBarState
        var language: String?
        var notice: Notice?
        var customizationStart: [String]?
        var created: Int64
        var lastSeen: Int64
    }

    static func decodeJSON(_ bytes: [UInt8], id: SessionID, revision: Int) throws(SessionStoreError) -> Session {
        let stored: StoredJSON
        do {
            stored = try JSONDecoder().decode(StoredJSON.self, from: Data(bytes))
        } catch {
            throw SessionStoreError("unreadable session \(id): \(error)")
        }
        guard stored.format == 1 else {
            throw SessionStoreError("session \(id) has unknown format \(stored.format)")
        }
        guard let csrf = SessionID(cookieValue: stored.csrf) else {
            throw SessionStoreError("session \(id) has a malformed token")
        }
        return Session(
            id: id, csrfToken: csrf, state: stored.state, language: stored.language, notice: stored.notice,
            customizationStart: stored.customizationStart, created: stored.created, lastSeen: stored.lastSeen,
            revision: revision)
    }
}
