// SPDX-License-Identifier: Apache-2.0
/// The few fields of a held session that name the page it would be shown
/// (`SessionStore.heldSummary`): what a page seen before is looked up by, read in place
/// under the store's lock instead of copying the whole session out (a `Session` is large:
/// copying and destroying one costs more than the rest of a cached page's lookup).
public struct HeldSessionSummary: Sendable, Equatable {
    /// The session's id.
    public let id: SessionID
    /// The store's write counter (`Session.revision`).
    public let revision: Int
    /// The unconfirmed write this copy is, if any (`Session.writeToken`).
    package let writeToken: UInt64
    /// The form token every page of the session carries.
    public let csrfToken: SessionID
    /// The language the visitor chose (nil: negotiated per request).
    public let language: String?
    /// Whether the session is a signed-in user's record (never shown as a page of its own).
    public var isUserRecord: Bool { csrfToken == .userRecordToken }
    /// Whether a write of it awaits its commit (`SessionStore.awaitsCommit`).
    public let awaitsCommit: Bool

    /// The summary of `session`, whose write awaits its commit or not.
    public init(_ session: Session, awaitsCommit: Bool) {
        self.init(
            id: session.id, revision: session.revision, writeToken: session.writeToken,
            csrfToken: session.csrfToken, language: session.language, awaitsCommit: awaitsCommit)
    }

    /// A summary of these fields. A store reads them one by one from the session it holds
    /// (`held.session.revision`, …): passing the whole session would copy it first.
    package init(
        id: SessionID, revision: Int, writeToken: UInt64, csrfToken: SessionID, language: String?,
        awaitsCommit: Bool
    ) {
        self.id = id
        self.revision = revision
        self.writeToken = writeToken
        self.csrfToken = csrfToken
        self.language = language
        self.awaitsCommit = awaitsCommit
    }
}
