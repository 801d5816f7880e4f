// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerTabBar

extension SessionID {
    /// The id under which a signed-in user's own choices are stored, beside the sessions
    /// (every store keeps it unchanged, and bounds and expires it like a session): the
    /// first 16 bytes of HMAC-SHA256 over "user:" + name. The same on every instance.
    /// Such a record's token is `userRecordToken`, which no browser session has, so a
    /// cookie naming it is refused (`Session.isUserRecord`).
    public static func user(_ name: String) -> SessionID {
        let digest = HMAC.sha256(key: Array("tabserver user record".utf8), message: Array(("user:" + name).utf8))
        return SessionID(bytes: Array(digest.prefix(16)))!
    }

    /// The token a user record carries in place of a CSRF token (all zero bytes).
    public static let userRecordToken = SessionID(bytes: [UInt8](repeating: 0, count: 16))!
}

extension Session {
    /// A new, empty record for a signed-in user's choices (`SessionID.user(_:)`).
    public static func userRecord(_ name: String, now: Int64) -> Session {
        Session(
            id: .user(name), csrfToken: .userRecordToken, state: TabBarState(), language: nil, created: now,
            lastSeen: now, revision: 0)
    }

    /// Whether this is a user's record rather than a browser's session: a cookie that
    /// names one is treated as unknown (a fresh session), never loaded.
    public var isUserRecord: Bool { csrfToken == .userRecordToken }
}
