// SPDX-License-Identifier: Apache-2.0
/// Why a tab definition was refused. Its `description` is a one-line message naming
/// the tab and the problem, written for whoever edits the definition file: it is
/// printed when start-up (or a reload) fails.
///
/// ```swift
/// do { _ = try TabBarModel(tabs: []) }
/// catch { print(error) } // "no tabs"
/// ```
public struct TabBarModelError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Which colour setting a bad colour came from.
    public enum ColorOwner: Sendable, Hashable {
        /// The badge of the tab with this id.
        case badge(tabID: String)
        /// An appearance property, by its JSON name (`tint`, `unselectedTint`, `background`).
        case appearance(property: String)
    }

    /// The problem, with the context needed to point at it.
    public enum Reason: Sendable, Hashable {
        /// The definition has no tabs at all.
        case noTabs
        /// Every tab is disabled, so nothing could ever be selected.
        case noEnabledTab
        /// The tab at 1-based `index` has an id that is not a valid URL segment.
        case invalidID(String, index: Int)
        /// Two tabs share an id; both 1-based positions are given.
        case duplicateID(String, firstIndex: Int, secondIndex: Int)
        /// A title is empty or only whitespace.
        case emptyTitle(tabID: String)
        /// An icon or selected icon is not a safe relative file name.
        case invalidIcon(String, tabID: String)
        /// A template name is not a safe relative file name.
        case invalidTemplate(String, tabID: String)
        /// A colour is not `#rgb`, `#rrggbb`, `#rrggbbaa` or a lowercase name.
        case invalidColor(String, owner: ColorOwner)
        /// A badge's value is unusable (empty text, negative count, …).
        case invalidBadge(String, tabID: String)
        /// The JSON could not be read; the text says where and why.
        case invalidJSON(String)
        /// More than one tab has `"role": "search"`.
        case secondSearchTab(String, first: String)
        /// More than one tab has `"role": "prominent"`.
        case secondProminentTab(String, first: String)
        /// The tab's `preferredPlacement`, `allowsHiding` and `isHiddenByDefault` contradict each other.
        case invalidPlacement(String, tabID: String)
        /// More tabs at the bar's trailing end (pinned, search and prominent) than leave room for others.
        case tooManyPinned(count: Int)
        /// Every enabled tab starts hidden or lives only in the sidebar, so a phone's bar would be empty.
        case noTabInBar
        /// The group at 1-based `index` of `groups` has an id that is not a valid URL segment.
        case invalidGroupID(String, index: Int)
        /// Two declared groups share an id.
        case duplicateGroupID(String)
        /// A declared group is unusable (its title, icon, id or a child's settings); the text says why.
        case invalidGroup(String, groupID: String)
        /// No tab names this declared group in its `group`.
        case emptyGroup(String)
        /// The group's children are not consecutive: this tab stands between them.
        case scatteredGroup(String, tabID: String)
    }

    /// The problem.
    public let reason: Reason

    /// Wraps a reason.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// The message for the person fixing the definition, e.g.
    /// "duplicate tab id 'music' (tabs 2 and 5)".
    public var description: String {
        let colourHint = "use #rgb, #rrggbb, #rrggbbaa or a colour name of a-z"
        let nameHint = "use a relative path of letters, digits, '.', '_', '-'"
        switch reason {
        case .noTabs:
            return "no tabs"
        case .noEnabledTab:
            return "no enabled tab"
        case .invalidID(let id, let index):
            return "tab \(index): invalid id \(ErrorText.quoted(id)) "
                + "(use a-z, 0-9, -; start with a letter; at most \(Tab.maxIDLength) characters)"
        case .duplicateID(let id, let first, let second):
            return "duplicate tab id \(ErrorText.quoted(id)) (tabs \(first) and \(second))"
        case .emptyTitle(let tabID):
            return "tab \(ErrorText.quoted(tabID)): empty title"
        case .invalidIcon(let icon, let tabID):
            return "tab \(ErrorText.quoted(tabID)): invalid icon file name \(ErrorText.quoted(icon)) (\(nameHint))"
        case .invalidTemplate(let template, let tabID):
            return "tab \(ErrorText.quoted(tabID)): invalid template name \(ErrorText.quoted(template)) (\(nameHint))"
        case .invalidColor(let color, .badge(let tabID)):
            return
                "tab \(ErrorText.quoted(tabID)): invalid colour \(ErrorText.quoted(color)) for the badge (\(colourHint))"
        case .invalidColor(let color, .appearance(let property)):
            return "appearance: invalid colour \(ErrorText.quoted(color)) for \(property) (\(colourHint))"
        case .invalidBadge(let problem, let tabID):
            return "tab \(ErrorText.quoted(tabID)): \(problem)"
        case .invalidJSON(let detail):
            return "invalid JSON: \(detail)"
        case .secondSearchTab(let id, let first):
            return "tab \(ErrorText.quoted(id)): a second search tab (\(ErrorText.quoted(first)) is one already)"
        case .secondProminentTab(let id, let first):
            return "tab \(ErrorText.quoted(id)): a second prominent tab (\(ErrorText.quoted(first)) is one already)"
        case .invalidPlacement(let problem, let tabID):
            return "tab \(ErrorText.quoted(tabID)): \(problem)"
        case .tooManyPinned(let count):
            return
                "\(count) tabs at the bar's trailing end (pinned, search and prominent): at most \(TabBarModel.maxTrailingTabs)"
        case .noTabInBar:
            return "no enabled tab is shown in the bar by default (all start hidden or are sidebarOnly)"
        case .invalidGroupID(let id, let index):
            return "group \(index): invalid id \(ErrorText.quoted(id)) "
                + "(use a-z, 0-9, -; start with a letter; at most \(Tab.maxIDLength) characters)"
        case .duplicateGroupID(let id):
            return "duplicate group id \(ErrorText.quoted(id))"
        case .invalidGroup(let problem, let groupID):
            return "group \(ErrorText.quoted(groupID)): \(problem)"
        case .emptyGroup(let id):
            return "group \(ErrorText.quoted(id)): no tab names it in \"group\""
        case .scatteredGroup(let id, let tabID):
            return "group \(ErrorText.quoted(id)): its tabs must be consecutive "
                + "(tab \(ErrorText.quoted(tabID)) is between them)"
        }
    }
}
