// SPDX-License-Identifier: Apache-2.0

/// How the notes list is sorted: the Settings tab's per-visitor setting, kept in the
/// visitor's session under `NoteOrder.visitorKey`.
public enum NoteOrder: String, Sendable, CaseIterable {
    case newest, oldest, title

    /// The visitor value that holds the choice.
    public static let visitorKey = "sort"

    /// The visitor's choice, or newest first when they made none (or an unknown one).
    public init(visitorValues: [String: String]) {
        self = visitorValues[Self.visitorKey].flatMap(NoteOrder.init(rawValue:)) ?? .newest
    }

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
