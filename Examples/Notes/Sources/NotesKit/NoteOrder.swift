// SPDX-License-Identifier: Apache-2.0

import TabServer

/// How the notes list is sorted: the Settings tab's per-visitor setting, kept in the
/// visitor's session (`context.visitorValue(NoteOrder.self)`; none chosen is newest first).
public enum NoteOrder: String, VisitorValue, CaseIterable {
    case newest, oldest, title

    /// The name the choice is stored under.
    public static let key = "notes.sort"

    /// What the list and the setting call it.
    public var label: String {
        switch self {
        case .newest: "Newest first"
        case .oldest: "Oldest first"
        case .title: "By title"
        }
    }

    /// The SQL `ORDER BY` terms (the id breaks ties, so the order never wobbles).
    var orderBy: String {
        switch self {
        case .newest: "id DESC"
        case .oldest: "id ASC"
        case .title: "title COLLATE NOCASE ASC, id ASC"
        }
    }
}
