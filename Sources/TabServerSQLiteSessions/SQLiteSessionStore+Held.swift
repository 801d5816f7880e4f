// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// What `heldCopy` and `heldSummary` read of a cached session (under the `memory` lock).
extension SQLiteSessionStore.Cached {
    /// The session and whether its write awaits the commit, if `heldCopy` answers it.
    func heldCopy(now: Int64, lifetime: SessionLifetime, awaitsCommit: Bool) -> HeldSession? {
        guard isHeld(now: now, lifetime: lifetime) else { return nil }
        return HeldSession(session: session, awaitsCommit: awaitsCommit)
    }

    /// The fields that key a page, if `heldCopy` answers the session.
    func heldSummary(now: Int64, lifetime: SessionLifetime, awaitsCommit: Bool) -> HeldSessionSummary? {
        guard isHeld(now: now, lifetime: lifetime) else { return nil }
        return HeldSessionSummary(
            id: session.id, revision: session.revision, writeToken: session.writeToken,
            csrfToken: session.csrfToken, language: session.language, awaitsCommit: awaitsCommit)
    }

    /// Whether the copy answers without `load`: not expired, its `last_seen` not due to be
    /// refreshed, and not on probation (`load` makes a due touch and promotes).
    private func isHeld(now: Int64, lifetime: SessionLifetime) -> Bool {
        now - storedLastSeen < SQLiteSessionStore.touchInterval && standing != .probationary
            && !lifetime.isExpired(lastSeen: session.lastSeen, created: session.created, now: now)
    }
}
