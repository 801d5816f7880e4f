// SPDX-License-Identifier: Apache-2.0
/// Idle and absolute lifetimes, in seconds.
public struct SessionLifetime: Sendable, Hashable {
    /// A session unused this long expires. Default 30 days: the state is only
    /// preferences (selected tab, order), so forgetting it soon would annoy and keeping
    /// it costs nothing sensitive.
    public var idle: Int64
    /// A session expires this long after creation, used or not. Default 180 days.
    public var absolute: Int64

    public init(idle: Int64 = 30 * 86_400, absolute: Int64 = 180 * 86_400) {
        self.idle = idle
        self.absolute = absolute
    }

    /// Whether `session` has expired at `now`.
    public func isExpired(_ session: Session, now: Int64) -> Bool {
        isExpired(lastSeen: session.lastSeen, created: session.created, now: now)
    }

    /// `isExpired` of a session last seen and created then (read from a held session
    /// field by field, without copying it).
    package func isExpired(lastSeen: Int64, created: Int64, now: Int64) -> Bool {
        now - lastSeen > idle || now - created > absolute
    }
}
