// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// A part of a session that follows a signed-in user from browser to browser: the
/// arrangement of the bar (order and hidden tabs), the language, the app's values, the
/// push subscriptions and the badge overrides. The rest (selection, each tab's position,
/// notices, the sidebar) stays with each browser. `Session.userChoices` declares them
/// once; whether a browser chose any, the merge into a user's record on the first
/// signed-in request, and the copies between the record and a browser's session all
/// follow from that list.
package struct UserChoice: Sendable {
    /// Whether `session` holds a choice of its own here.
    package let isChosen: @Sendable (_ session: Session) -> Bool
    /// On a browser's first signed-in request: takes the browser's choice into the user's
    /// record (the user's wins where it has one).
    package let merge: @Sendable (_ browser: Session, _ record: inout Session) -> Void
    /// What a signed-in browser shows: the user's choice in place of its own.
    package let show: @Sendable (_ record: Session, _ session: inout Session) -> Void
    /// What the browser keeps of its own while signed in: its stored choice, unchanged.
    package let keep: @Sendable (_ browser: Session, _ part: inout Session) -> Void
    /// What the user's record takes from a signed-in request's session (`loaded`: the
    /// session as the request found it).
    package let record: @Sendable (_ session: Session, _ loaded: Session?, _ record: inout Session) -> Void

    /// A choice that is either made or not, taken whole: merged when the user has none.
    static func whole(
        isChosen: @escaping @Sendable (Session) -> Bool, copy: @escaping @Sendable (Session, inout Session) -> Void
    ) -> UserChoice {
        UserChoice(
            isChosen: isChosen,
            merge: { browser, record in if !isChosen(record) { copy(browser, &record) } },
            show: copy, keep: copy, record: { session, _, record in copy(session, &record) })
    }
}

extension Session {
    /// The parts of a session that follow a signed-in user (see `UserChoice`).
    package static let userChoices: [UserChoice] = [
        // The arrangement: the order and the hidden tabs are one choice.
        .whole(
            isChosen: { $0.state.order != nil || !$0.state.hiddenChoices.isEmpty },
            copy: { source, target in
                target.state.order = source.state.order
                target.state.hiddenChoices = source.state.hiddenChoices
            }),
        .whole(isChosen: { $0.language != nil }, copy: { source, target in target.language = source.language }),
        .whole(isChosen: { !$0.appValues.isEmpty }, copy: { source, target in target.appValues = source.appValues }),
        // Push subscriptions: a browser's devices join the user's (within the user's limit).
        UserChoice(
            isChosen: { !$0.pushSubscriptions.isEmpty },
            merge: { browser, record in
                for subscription in browser.pushSubscriptions where !record.pushSubscriptions.contains(subscription) {
                    record.pushSubscriptions = record.pushSubscriptions.adding(subscription, within: .user)
                }
            },
            show: { record, session in session.pushSubscriptions = record.pushSubscriptions },
            keep: { browser, part in part.pushSubscriptions = browser.pushSubscriptions },
            record: { session, _, record in record.pushSubscriptions = session.pushSubscriptions }),
        // Badge overrides: a browser's badges the app set for it alone still show under the
        // user's, and only the badges a request changed become the user's.
        UserChoice(
            isChosen: { !$0.state.badgeOverrides.isEmpty },
            merge: { browser, record in
                record.state.badgeOverrides.merge(browser.state.badgeOverrides) { mine, _ in mine }
            },
            show: { record, session in
                session.state.badgeOverrides.merge(record.state.badgeOverrides) { _, mine in mine }
            },
            keep: { browser, part in part.state.badgeOverrides = browser.state.badgeOverrides },
            record: { session, loaded, record in
                let before = loaded?.state.badgeOverrides ?? [:]
                for tabID in Set(before.keys).union(session.state.badgeOverrides.keys)
                where session.state.badgeOverrides[tabID] != before[tabID] {
                    record.state.badgeOverrides[tabID] = session.state.badgeOverrides[tabID]
                }
            }),
    ]

    /// Whether the visitor chose anything that follows a signed-in user.
    package var hasOwnChoices: Bool { Self.userChoices.contains { $0.isChosen(self) } }
}
