// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// One visitor's server-side state: the tab bar state plus what protects it.
public struct Session: Sendable, Hashable {
    /// The id in the visitor's cookie.
    public let id: SessionID
    /// The synchronizer token every form of this session carries (16 random bytes).
    public var csrfToken: SessionID
    /// The visitor's tab bar state (selection, stacks, order, badge overrides).
    public var state: TabBarState
    /// The language the visitor chose explicitly (nil: negotiate from `Accept-Language`).
    public var language: String?
    /// A message for the next page shown (a vetoed selection), shown once.
    public var notice: Notice? {
        get { rare?.parts.notice }
        set { modifyRare { $0.notice = newValue } }
    }
    /// The browsers that asked for push messages (Web Push), oldest first: this browser's
    /// own for an anonymous visitor, every device's in a signed-in user's record. Within
    /// `PushSubscriptionLimit.browser` and `.user`.
    public var pushSubscriptions: [PushSubscriptionRecord] {
        get { rare?.parts.pushSubscriptions ?? [] }
        set { modifyRare { $0.pushSubscriptions = newValue } }
    }
    /// The tab order when the visitor opened More → Edit (nil when not customizing), so
    /// Done can tell `didEndCustomizing` whether anything changed.
    public var customizationStart: [String]? {
        get { rare?.parts.customizationStart }
        set { modifyRare { $0.customizationStart = newValue } }
    }
    /// Values the app keeps for this visitor (its own settings), stored with the session.
    public var appValues: [String: String] {
        get { rare?.parts.appValues ?? [:] }
        set { modifyRare { $0.appValues = newValue } }
    }
    /// The parts most sessions leave empty (`notice`, `pushSubscriptions`,
    /// `customizationStart`, `appValues`), held by one reference, nil when all are empty.
    /// Inline they would make every session a size class larger in a store's memory
    /// (the memory store is held to 512 B a session at 100,000 sessions, and the next
    /// class is past it), and every copy of a session (several a request) retain and
    /// release each.
    private var rare: RareParts?
    /// Creation time, seconds since 1970 (the absolute timeout counts from it).
    public let created: Int64
    /// Last request, seconds since 1970 (the idle timeout counts from it).
    public var lastSeen: Int64
    /// The store's write counter, for compare-and-set updates: a write succeeds only if
    /// nobody wrote since this copy was read.
    public var revision: Int
    /// The signed-in user's record (`SessionID.user(_:)`) this browser session's own
    /// choices were merged into, so they are merged only once (nil: never merged).
    public var mergedUser: SessionID?
    /// Set by a store whose writes are confirmed later (Redis): the token of this
    /// instance's own write that this copy is, while that write may still be refused
    /// (0: the copy rests on what the store holds). A write built on the copy is
    /// refused unless the store still holds exactly that write, since another
    /// instance's write can carry the same revision.
    package var writeToken: UInt64 = 0

    /// A new session with fresh random id and token.
    public static func new(now: Int64) -> Session {
        Session(
            id: .generate(), csrfToken: .generate(), state: TabBarState(), language: nil, notice: nil, created: now,
            lastSeen: now,
            revision: 0)
    }

    /// A session with every field given (stores use it when decoding).
    public init(
        id: SessionID, csrfToken: SessionID, state: TabBarState, language: String?, notice: Notice? = nil,
        customizationStart: [String]? = nil,
        created: Int64,
        lastSeen: Int64, revision: Int, mergedUser: SessionID? = nil
    ) {
        self.mergedUser = mergedUser
        self.rare = RareParts.with(RareParts.Parts(notice: notice, customizationStart: customizationStart))
        self.id = id
        self.csrfToken = csrfToken
        self.state = state
        self.language = language
        self.created = created
        self.lastSeen = lastSeen
        self.revision = revision
    }
}

extension Session {
    /// A copy stored under `revision`.
    public func withRevision(_ revision: Int) -> Session {
        var copy = self
        copy.revision = revision
        return copy
    }
}

extension Session {
    /// A copy stored under `revision` as this instance's unconfirmed write `writeToken`.
    package func withRevision(_ revision: Int, writeToken: UInt64) -> Session {
        var copy = self
        copy.revision = revision
        copy.writeToken = writeToken
        return copy
    }
}

extension Session {
    /// Changes the rare parts: a new reference holding them (none when all are empty).
    private mutating func modifyRare(_ change: (inout RareParts.Parts) -> Void) {
        var parts = rare?.parts ?? RareParts.Parts()
        change(&parts)
        rare = RareParts.with(parts)
    }
}

/// A session's rare parts behind a reference, immutable, compared and hashed by value.
private final class RareParts: Sendable, Hashable {
    struct Parts: Hashable {
        var notice: Notice?
        var pushSubscriptions: [PushSubscriptionRecord] = []
        var customizationStart: [String]?
        var appValues: [String: String] = [:]

        var isEmpty: Bool {
            notice == nil && pushSubscriptions.isEmpty && customizationStart == nil && appValues.isEmpty
        }
    }

    let parts: Parts

    private init(_ parts: Parts) { self.parts = parts }

    /// The parts, or nil when there are none (most sessions).
    static func with(_ parts: Parts) -> RareParts? {
        parts.isEmpty ? nil : RareParts(parts)
    }

    static func == (left: RareParts, right: RareParts) -> Bool { left.parts == right.parts }

    func hash(into hasher: inout Hasher) { hasher.combine(parts) }
}
