// SPDX-License-Identifier: Apache-2.0
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

    /// Where an item's title sits relative to its icon (UIKit's stacked and inline
    /// item layouts).
    public enum TitlePosition: String, Sendable, Codable, CaseIterable {
        /// Below the icon on phones in portrait, beside it wherever the bar is wide or
        /// short (regular width, phone landscape), as UIKit does.
        case automatic
        /// Always below the icon.
        case below
        /// Always beside the icon.
        case beside
    }

    /// How a screen of 1024 px and wider shows the tabs (phones always keep the fixed
    /// bottom bar): the same markup, styled by CSS alone.
    public enum RegularLayout: String, Sendable, Codable, CaseIterable {
        /// The bottom tab bar, as on a phone.
        case bottomBar
        /// A floating tab bar at the top, as on iPadOS 18.
        case topBar
        /// A sidebar at the leading edge, with tab groups (UIKit's `UITabGroup`).
        case sidebar
    }

    /// Whether the bar shrinks to its compact form while the page scrolls (iOS 26's
    /// `tabBarMinimizeBehavior`, SwiftUI's `.tabBarMinimizeBehavior(_:)`): icons without
    /// titles, a shorter bar. It comes back on scrolling the other way, at the top and at
    /// the end of the page, and whenever focus is in the bar. Only a bar at the bottom
    /// minimizes (not the floating top bar or the sidebar of 1024 px and wider).
    public enum MinimizeBehavior: String, Sendable, Codable, CaseIterable {
        /// The bar keeps its size (the default).
        case never
        /// Minimizes while the page scrolls down, returns when it scrolls up.
        case onScrollDown
        /// Minimizes while the page scrolls up, returns when it scrolls down (content
        /// read from the bottom, a conversation).
        case onScrollUp
    }

    /// The bar's look while the content's bottom edge is reached (UIKit's
    /// `scrollEdgeAppearance`): by default transparent and without the hairline.
    public struct ScrollEdgeAppearance: Sendable, Hashable, Codable {
        /// Bar background at the scroll edge.
        public var background: String
        /// Hairline colour at the scroll edge (`transparent`: none).
        public var shadowColor: String

        /// Creates a scroll-edge look; both default to `transparent`.
        public init(background: String = "transparent", shadowColor: String = "transparent") {
            self.background = background
            self.shadowColor = shadowColor
        }
    }

    /// Default tint: the system blue.
    public static let defaultTint = "#007aff"
    /// The system blue of dark mode, used when the tint is the default and no dark tint is set.
    public static let defaultDarkTint = "#0a84ff"
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

    /// The tint in dark mode (`"tint": {"light": …, "dark": …}`); nil: the system
    /// blue's dark variant for the default tint, else the tint itself.
    public var darkTint: String? = nil
    /// The unselected tint in dark mode; nil: the light one.
    public var darkUnselectedTint: String? = nil
    /// The bar background in dark mode; nil: the system's dark bar colour.
    public var darkBackground: String? = nil
    /// A pill drawn behind the selected item (`selectionIndicatorTintColor`, iOS 26's
    /// selection capsule); nil: none.
    public var selectionIndicatorTint: String? = nil
    /// The bar's top hairline (`shadowColor`); nil: the system separator,
    /// `transparent`: none.
    public var shadowColor: String? = nil
    /// An image under the bar (`backgroundImage`): a path below `Public/`, e.g.
    /// `images/bar.png`; the app checks the file exists. nil: none.
    public var backgroundImage: String? = nil
    /// The look at the content's bottom edge; nil: the standard look everywhere.
    public var scrollEdgeAppearance: ScrollEdgeAppearance? = nil
    /// Width of an item in CSS pixels when items are centred (`itemWidth`); nil: 120.
    public var itemWidth: Double? = nil
    /// Space between centred items in CSS pixels (`itemSpacing`); nil: none.
    public var itemSpacing: Double? = nil
    /// Title below or beside the icon.
    public var titlePosition: TitlePosition = .automatic
    /// How 1024 px and wider screens show the tabs.
    public var regularLayout: RegularLayout = .bottomBar
    /// Whether the bar minimizes while the page scrolls.
    ///
    /// ```swift
    /// var look = TabBarAppearance()
    /// look.minimizeBehavior = .onScrollDown
    /// ```
    public var minimizeBehavior: MinimizeBehavior = .never
    /// Whether visitors get a control that switches between the sidebar and the bar at
    /// 1024 px and wider (iPadOS 18's sidebar toggle, `UITabBarController.mode`
    /// `.tabSidebar`); their choice is kept in their session (`TabBarState.isSidebarHidden`).
    /// nil: offered when `regularLayout` is `.sidebar`. See `allowsSidebarToggle`.
    public var sidebarToggle: Bool? = nil
    /// How the bar at the bottom is drawn: `.classic` (iOS 18, the default) or
    /// `.floating` (iOS 26's glass capsule). The floating top bar and the sidebar of
    /// 1024 px and wider keep their look in both.
    public var barStyle: BarStyle = .classic
    /// Which platform's bar pages draw: `.automatic` (the default) gives Android's
    /// browsers Material 3's navigation bar and every other one iOS's.
    public var platformStyle: PlatformStyle = .automatic

    /// Whether the sidebar toggle is offered: `sidebarToggle`, or by default only with the
    /// sidebar layout.
    public var allowsSidebarToggle: Bool { sidebarToggle ?? (regularLayout == .sidebar) }

    /// The layout of 1024 px and wider screens for a visitor who chose to show
    /// (`false`) or hide (`true`) the sidebar, or made no choice (nil). Hiding a sidebar
    /// of the model gives the floating bar at the top, as iPadOS 18 does; showing one
    /// where the model has a bar gives the sidebar. Without the toggle the model decides.
    public func regularLayout(sidebarHidden: Bool?) -> RegularLayout {
        guard allowsSidebarToggle, let hidden = sidebarHidden else { return regularLayout }
        if !hidden { return .sidebar }
        return regularLayout == .sidebar ? .topBar : regularLayout
    }

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
        var colors = [("tint", tint), ("unselectedTint", unselectedTint), ("background", background)]
        let optional: [(String, String?)] = [
            ("tint.dark", darkTint), ("unselectedTint.dark", darkUnselectedTint), ("background.dark", darkBackground),
            ("selectionIndicatorTint", selectionIndicatorTint), ("shadowColor", shadowColor),
            ("scrollEdgeAppearance.background", scrollEdgeAppearance?.background),
            ("scrollEdgeAppearance.shadowColor", scrollEdgeAppearance?.shadowColor),
        ]
        for (property, value) in optional { if let value { colors.append((property, value)) } }
        return colors
    }

    /// Accepted item widths and spacings, in CSS pixels.
    public static let itemWidthRange = 44.0...400.0
    /// Accepted spacing between items, in CSS pixels.
    public static let itemSpacingRange = 0.0...100.0

    /// The first invalid colour or size, as a model error; `nil` when all are valid.
    func validationError() -> TabBarModelError? {
        for (property, value) in namedColors where !CSSColor.isValid(value) {
            return TabBarModelError(.invalidColor(value, owner: .appearance(property: property)))
        }
        if let image = backgroundImage, !PathSyntax.isValidFileName(image) {
            return TabBarModelError(
                .invalidJSON("appearance: backgroundImage \(ErrorText.quoted(image)) is not a file path"))
        }
        if let itemWidth, !Self.itemWidthRange.contains(itemWidth) {
            return TabBarModelError(.invalidJSON("appearance: itemWidth must be between 44 and 400"))
        }
        if let itemSpacing, !Self.itemSpacingRange.contains(itemSpacing) {
            return TabBarModelError(.invalidJSON("appearance: itemSpacing must be between 0 and 100"))
        }
        return nil
    }
}
