import FoundationEssentials
import TabBar

/// The bytes a durable or shared store keeps for a session (everything but the id and
/// the revision, which stores keep beside it so compare-and-set needs no decoding).
/// JSON with a format number, so a later version can read what an earlier one wrote.
public enum SessionCodec {
    /// The format written now.
    public static let format = 1

    private struct Stored: Codable {
        var format: Int
        var csrf: String
        var state: TabBarState
        var language: String?
        var notice: Notice?
        var customizationStart: [String]?
        var created: Int64
        var lastSeen: Int64
    }

    /// The stored form of `session`.
    public static func encode(_ session: Session) -> [UInt8] {
        let stored = Stored(
            format: format, csrf: session.csrfToken.text, state: session.state, language: session.language,
            notice: session.notice, customizationStart: session.customizationStart, created: session.created,
            lastSeen: session.lastSeen)
        do {
            return Array(try JSONEncoder().encode(stored))
        } catch {
            // Every field is a plain value; encoding cannot fail short of a bug.
            preconditionFailure("session encoding failed: \(error)")
        }
    }

    /// The session stored as `bytes` under `id` at `revision`; throws when the bytes are
    /// not a session this version understands (the store then treats it as absent).
    public static func decode(_ bytes: [UInt8], id: SessionID, revision: Int) throws(SessionStoreError) -> Session {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(bytes))
        } catch {
            throw SessionStoreError("unreadable session \(id): \(error)")
        }
        guard stored.format == format else {
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
