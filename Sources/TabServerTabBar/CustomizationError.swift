// SPDX-License-Identifier: Apache-2.0
/// Why a customization was refused; the visitor's state is untouched. The
/// description is a sentence for the page that reports it.
public enum CustomizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a move is impossible for a tab that could otherwise move.
    public enum MoveProblem: Sendable, Hashable, CustomStringConvertible {
        /// No customizable tab before it.
        case alreadyFirst
        /// No customizable tab after it.
        case alreadyLast
        /// It is already in the compact bar.
        case alreadyInBar
        /// It is already in More.
        case alreadyInMore
        /// There are too few tabs for a More list.
        case noMoreList
        /// Every compact bar slot holds a non-customizable tab.
        case noBarSlot
        /// Every tab in More is non-customizable, so none can take its bar slot.
        case noMoreSlot
        /// It is hidden: show it first.
        case isHidden
        /// It is hidden already.
        case alreadyHidden
        /// It is shown already.
        case alreadyShown
        /// It is the last enabled tab the bar shows.
        case lastShown

        /// The reason as a phrase that completes "cannot move tab 'x': …".
        public var description: String {
            switch self {
            case .alreadyFirst: return "it is already first"
            case .alreadyLast: return "it is already last"
            case .alreadyInBar: return "it is already in the bar"
            case .alreadyInMore: return "it is already in More"
            case .noMoreList:
                return "there is no More list with \(TabBarModel.compactBarCapacity) tabs or fewer"
            case .noBarSlot: return "every place in the bar holds a fixed tab"
            case .noMoreSlot: return "every tab in More is fixed, so none can take its place"
            case .isHidden: return "it is hidden; show it first"
            case .alreadyHidden: return "it is already hidden"
            case .alreadyShown: return "it is already shown"
            case .lastShown: return "it is the last tab left in the bar"
            }
        }
    }

    /// The form was rendered for another version of the state (an edit in a second
    /// window came first); the app answers 409 and shows the current order.
    case stale(currentVersion: Int)
    /// No tab has this id.
    case unknownTab(String)
    /// The tab is not customizable; it stays where the model put it.
    case notCustomizable(String)
    /// The tab does not allow hiding (`allowsHiding`, its placement, or the search tab).
    case notHideable(String)
    /// Hiding or showing is impossible for this tab right now.
    case cannotHide(String, reason: MoveProblem)
    /// The move is impossible for this tab right now.
    case cannotMove(String, reason: MoveProblem)
    /// A posted order names this tab twice.
    case duplicateInOrder(String)
    /// A posted order is not acceptable for another reason, given in words.
    case invalidOrder(reason: String)

    /// Whether the error means "reload, the state moved on" rather than a bad request.
    public var isStale: Bool {
        if case .stale = self { return true }
        return false
    }

    /// The message for the visitor, e.g. "cannot move tab 'news': it is already first".
    public var description: String {
        switch self {
        case .stale(let version):
            return "the tab order was changed elsewhere (now version \(version)); reload and try again"
        case .unknownTab(let id):
            return "unknown tab \(ErrorText.quoted(id))"
        case .notCustomizable(let id):
            return "tab \(ErrorText.quoted(id)) cannot be moved: it is not customizable"
        case .notHideable(let id):
            return "tab \(ErrorText.quoted(id)) cannot be hidden or shown: it does not allow hiding"
        case .cannotHide(let id, let problem):
            return "cannot hide or show tab \(ErrorText.quoted(id)): \(problem)"
        case .cannotMove(let id, let problem):
            return "cannot move tab \(ErrorText.quoted(id)): \(problem)"
        case .duplicateInOrder(let id):
            return "tab \(ErrorText.quoted(id)) appears more than once in the order"
        case .invalidOrder(let reason):
            return "invalid tab order: \(reason)"
        }
    }
}
