/// How the bar looks: the counterpart of `UITabBarAppearance`, `tintColor`,
/// `unselectedItemTintColor`, `isTranslucent` and `itemPositioning`.
///
/// The values reach the page only through `cssCustomProperties`, which re-checks every
/// colour, so even an appearance built in code without a model cannot inject CSS.
///
/// ```swift
/// var look = TabBarAppearance()
/// look.tint = "#ff2d55"
/// look.itemPositioning = .centered
/// ```
public struct TabBarAppearance: Sendable, Hashable {
    /// How items spread across a wide bar (regular width); at compact width they
    /// always fill the bar, as on a phone.
    public enum ItemPositioning: String, Sendable, Codable, CaseIterable {
        /// Fill at compact width, centred at regular width (UIKit's default).
        case automatic
        /// Items share the whole width of the bar.
        case fill
        /// Items keep a fixed width and gather in the middle.
        case centered
    }

    /// Default tint: the system blue.
    public static let defaultTint = "#007aff"
    /// Default unselected tint: the system grey.
    public static let defaultUnselectedTint = "#8e8e93"
    /// Default background: the light bar colour.
    public static let defaultBackground = "#f9f9f9"

    /// Colour of the selected item (icon and title).
    public var tint: String
    /// Colour of the other items.
    public var unselectedTint: String
    /// Bar background colour.
    public var background: String
    /// Whether content scrolling under the bar shows through, blurred.
    public var isTranslucent: Bool
    /// How items spread across a wide bar.
    public var itemPositioning: ItemPositioning

    /// Creates an appearance; every argument defaults to the iOS light look.
    public init(
        tint: String = TabBarAppearance.defaultTint,
        unselectedTint: String = TabBarAppearance.defaultUnselectedTint,
        background: String = TabBarAppearance.defaultBackground,
        isTranslucent: Bool = true,
        itemPositioning: ItemPositioning = .automatic
    ) {
        self.tint = tint
        self.unselectedTint = unselectedTint
        self.background = background
        self.isTranslucent = isTranslucent
        self.itemPositioning = itemPositioning
    }

    /// The colour settings by JSON name, in the order they are validated and rendered.
    var namedColors: [(property: String, value: String)] {
        [("tint", tint), ("unselectedTint", unselectedTint), ("background", background)]
    }

    /// The first invalid colour, as a model error; `nil` when all are valid.
    func validationError() -> TabBarModelError? {
        for (property, value) in namedColors where !CSSColor.isValid(value) {
            return TabBarModelError(.invalidColor(value, owner: .appearance(property: property)))
        }
        return nil
    }
}
