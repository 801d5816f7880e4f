// SPDX-License-Identifier: Apache-2.0
extension Tab {
    /// Longest accepted tab id: it is a URL segment and a key in every visitor's state.
    public static let maxIDLength = 32

    /// Whether `id` is 1–32 characters of `a-z`, `0-9`, `-`, starting with a letter.
    /// Lowercase only, so one tab has exactly one URL.
    public static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard let first = bytes.first, bytes.count <= maxIDLength,
            first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z")
        else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// The first problem with this tab, checked in reading order; `index` is the tab's
    /// 1-based position in the definition, used while the id itself is unusable.
    func validationError(index: Int) -> TabBarModelError? {
        guard Self.isValidID(id) else {
            return TabBarModelError(.invalidID(id, index: index))
        }
        guard title.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            return TabBarModelError(.emptyTitle(tabID: id))
        }
        for name in [icon] + (selectedIcon.map { [$0] } ?? []) where !PathSyntax.isValidFileName(name) {
            return TabBarModelError(.invalidIcon(name, tabID: id))
        }
        guard PathSyntax.isValidFileName(template) else {
            return TabBarModelError(.invalidTemplate(template, tabID: id))
        }
        if let problem = placementProblem {
            return TabBarModelError(.invalidPlacement(problem, tabID: id))
        }
        if let badge {
            if let color = badge.color, !CSSColor.isValid(color) {
                return TabBarModelError(.invalidColor(color, owner: .badge(tabID: id)))
            }
            if let problem = badge.validationProblem {
                return TabBarModelError(.invalidBadge(problem, tabID: id))
            }
        }
        return nil
    }

    /// Why the placement and hiding settings do not go together, or nil.
    private var placementProblem: String? {
        if role != .standard, preferredPlacement != .automatic {
            return "the \(role.rawValue) tab has its own place; leave out preferredPlacement"
        }
        if role != .standard, allowsHiding || isHiddenByDefault { return "the \(role.rawValue) tab cannot be hidden" }
        switch preferredPlacement {
        case .fixed, .movable, .pinned, .sidebarOnly:
            if allowsHiding || isHiddenByDefault {
                return
                    "a \(preferredPlacement.rawValue) tab cannot be hidden (allowsHiding and isHiddenByDefault need automatic or optional)"
            }
        case .automatic:
            if isHiddenByDefault, !allowsHiding { return "isHiddenByDefault needs allowsHiding" }
        case .optional:
            break
        }
        return nil
    }
}
