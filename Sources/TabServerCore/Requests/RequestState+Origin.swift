// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

extension RequestState {
    /// Where a request's session comes from, with what belongs to each case, so a new
    /// session's token or refusal cannot be read for a stored one. The session itself is
    /// kept beside it (`loaded`): held in the cases, every read of it copied it whole.
    enum Origin {
        /// Not known yet (`visitor()` has not run).
        case unknown
        /// The session the cookie names, as loaded (for a signed-in visitor, with their
        /// record's choices in place).
        case stored
        /// A session this request created, not stored yet: it is stored (and its cookie
        /// set) only if the request leaves something to remember (`Session.isDefault`),
        /// and until then its forms carry the shared signed token. `ownToken` is the
        /// random token it gets when stored (pages this request renders after a change
        /// carry it already); nil when its client is past its budget of new sessions
        /// (`TabServerResponder.newSessions`), so it will not be stored.
        case new(ownToken: SessionID?)
    }

    /// The session as loaded or created (nil until `visitor()` is called).
    var loaded: Session? {
        _read { yield loadedSession }
    }

    /// Whether the session was created by this request and is not stored yet.
    var isNewSession: Bool {
        if case .new = origin { true } else { false }
    }

    /// A new session's own random token (nil for a stored one, or a refused new one).
    var ownToken: SessionID? {
        if case .new(let token) = origin { token } else { nil }
    }

    /// Whether this request's new session may not be stored: its client is past its
    /// budget of new sessions. Its page is served as a visitor without a session sees it.
    var newSessionRefused: Bool {
        if case .new(nil) = origin { true } else { false }
    }
}
