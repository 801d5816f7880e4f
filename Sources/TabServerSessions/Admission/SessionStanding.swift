// SPDX-License-Identifier: Apache-2.0
/// Where a stored session stands in its store's admission: what eviction takes first when
/// the store is full. A session seen once is on probation; it is established when its
/// visitor comes back; a signed-in user's record stands apart and is never evicted to
/// make room for anonymous sessions (see docs/sessions.md).
public enum SessionStanding: UInt8, Sendable, Hashable {
    /// Stored by the request that made it, never asked for since: a stranger's one-shot
    /// session looks like this, and so does a new visitor's until they come back.
    case probationary = 0
    /// Loaded again by a later request: a returning visitor.
    case established = 1
    /// A signed-in user's record (`SessionID.user(_:)`), counted and bounded apart.
    case user = 2

    /// How a new session starts: a user's record as one, any other on probation.
    public static func ofNew(_ session: Session) -> SessionStanding {
        session.isUserRecord ? .user : .probationary
    }
}
