// SPDX-License-Identifier: Apache-2.0
extension TabBarAppearance {
    /// Backdrop blur radius of a translucent bar.
    public static let translucentBlur = "20px"
    /// How much of the background colour a translucent bar keeps (the rest shows the
    /// blurred content behind it).
    public static let translucentOpacity = "82%"
    /// Item width at regular width when items are centred (close to UIKit's item width).
    public static let centeredItemMaxWidth = "7.5rem"

    /// The appearance as CSS custom properties for the bar's `style` attribute, e.g.
    /// `--tab-tint:#007aff;--tab-unselected-tint:#8e8e93;--tab-background:#f9f9f9;`
    /// `--tab-blur:20px;--tab-background-opacity:82%;--tab-item-justify:center;--tab-item-max-width:7.5rem`.
    ///
    /// Safe inside a `style` attribute whatever the stored values are: a colour that
    /// fails `CSSColor.isValid` is replaced by its default, and every other value is a
    /// constant of this module. (A model never holds invalid colours; this guards
    /// appearances built in code.)
    public var cssCustomProperties: String {
        let tint = CSSColor.isValid(tint) ? tint : Self.defaultTint
        let unselected = CSSColor.isValid(unselectedTint) ? unselectedTint : Self.defaultUnselectedTint
        let background = CSSColor.isValid(background) ? background : Self.defaultBackground
        let (justify, maxWidth) = itemLayout
        return [
            "--tab-tint:\(tint)",
            "--tab-unselected-tint:\(unselected)",
            "--tab-background:\(background)",
            "--tab-blur:\(isTranslucent ? Self.translucentBlur : "0px")",
            "--tab-background-opacity:\(isTranslucent ? Self.translucentOpacity : "100%")",
            "--tab-item-justify:\(justify)",
            "--tab-item-max-width:\(maxWidth)",
        ].joined(separator: ";")
    }

    /// `justify-content` of the item row and the item's `max-width` at regular width.
    /// Automatic behaves as centred there, as UIKit does on a regular-width bar.
    private var itemLayout: (justify: String, maxWidth: String) {
        switch itemPositioning {
        case .automatic, .centered:
            if let itemWidth, Self.itemWidthRange.contains(itemWidth) { return ("center", Self.pixels(itemWidth)) }
            return ("center", Self.centeredItemMaxWidth)
        case .fill:
            return ("space-evenly", "none")
        }
    }
}

extension TabBarAppearance {
    /// The light page and bar backgrounds text in the tint must read on.
    static let lightGrounds = ["#f2f2f7", "#ffffff"]
    /// The dark ones.
    static let darkGrounds = ["#000000", "#1c1c1e", "#121214"]
    /// The system's dark bar background.
    public static let defaultDarkBackground = "#121214"

    /// The tint of dark mode: the configured one, the system blue's dark variant for
    /// the default tint, else the light tint.
    public var effectiveDarkTint: String {
        darkTint ?? (tint.lowercased() == Self.defaultTint ? Self.defaultDarkTint : tint)
    }

    /// Everything beyond `cssCustomProperties`'s basic set: dark-mode colours, text
    /// colours adjusted for contrast, and the settings that are set. Each value is a
    /// checked colour, a number or a constant of this module.
    public var cssExtraProperties: String {
        func safe(_ value: String?, _ fallback: String) -> String {
            guard let value, CSSColor.isValid(value) else { return fallback }
            return value
        }
        let tint = safe(tint, Self.defaultTint)
        let darkTint = safe(effectiveDarkTint, tint)
        let unselected = safe(unselectedTint, Self.defaultUnselectedTint)
        let darkUnselected = safe(darkUnselectedTint, unselected)
        let background = safe(background, Self.defaultBackground)
        let darkBackground = safe(darkBackground, Self.defaultDarkBackground)
        var properties = [
            "--tab-tint-dark:\(darkTint)", "--tab-unselected-tint-dark:\(darkUnselected)",
            "--tab-background-dark:\(darkBackground)",
        ]
        let light = [background] + Self.lightGrounds
        let dark = [darkBackground] + Self.darkGrounds
        let texts: [(String, String?)] = [
            ("--tab-tint-text", ReadableColor.text(tint, on: light, towards: .black)),
            ("--tab-tint-text-dark", ReadableColor.text(darkTint, on: dark, towards: .white)),
            ("--tab-unselected-text", ReadableColor.text(unselected, on: light, towards: .black)),
            ("--tab-unselected-text-dark", ReadableColor.text(darkUnselected, on: dark, towards: .white)),
            // A fill white text reads on (primary buttons).
            ("--tab-tint-fill", ReadableColor.text(tint, on: ["#ffffff"], towards: .black)),
        ]
        for (name, value) in texts { if let value { properties.append("\(name):\(value)") } }
        if let indicator = selectionIndicatorTint, CSSColor.isValid(indicator) {
            properties.append("--tab-selection-indicator:\(indicator)")
        }
        if let shadow = shadowColor, CSSColor.isValid(shadow) { properties.append("--tab-shadow:\(shadow)") }
        if let edge = scrollEdgeAppearance {
            properties.append("--tab-edge-background:\(safe(edge.background, "transparent"))")
            properties.append("--tab-edge-shadow:\(safe(edge.shadowColor, "transparent"))")
        }
        if let itemWidth, Self.itemWidthRange.contains(itemWidth) {
            properties.append("--tab-item-width:\(Self.pixels(itemWidth))")
        }
        if let itemSpacing, Self.itemSpacingRange.contains(itemSpacing) {
            properties.append("--tab-item-spacing:\(Self.pixels(itemSpacing))")
        }
        return properties.joined(separator: ";")
    }

    /// Classes for `<body>` that switch the settings which are more than a value:
    /// `regular-top-bar`, `regular-sidebar`, `has-selection-indicator`,
    /// `has-scroll-edge`, `titles-below`, `titles-beside`, and `minimizes-bar` with
    /// `minimize-on-scroll-down` or `minimize-on-scroll-up`, and `bar-floating`.
    public var cssClasses: String { cssClasses(sidebarHidden: nil) }

    /// The classes of `<body>` on Material 3's platform: `platform-material`, and
    /// `regular-sidebar` where the model (and the visitor) asks for a sidebar, which
    /// Material draws as a navigation drawer; else the rail. iOS's settings (the floating
    /// bar, minimizing, title positions, the selection indicator, the scroll edge) are
    /// iOS's own and not sent.
    public func materialCSSClasses(sidebarHidden: Bool?) -> String {
        regularLayout(sidebarHidden: sidebarHidden) == .sidebar
            ? "platform-material regular-sidebar" : "platform-material"
    }

    /// `cssClasses` for a visitor's choice of sidebar or bar (see
    /// `regularLayout(sidebarHidden:)`).
    public func cssClasses(sidebarHidden: Bool?) -> String {
        var classes: [String] = []
        switch regularLayout(sidebarHidden: sidebarHidden) {
        case .bottomBar: break
        case .topBar: classes.append("regular-top-bar")
        case .sidebar: classes.append("regular-sidebar")
        }
        if selectionIndicatorTint != nil { classes.append("has-selection-indicator") }
        if scrollEdgeAppearance != nil { classes.append("has-scroll-edge") }
        switch titlePosition {
        case .automatic: break
        case .below: classes.append("titles-below")
        case .beside: classes.append("titles-beside")
        }
        switch minimizeBehavior {
        case .never: break
        case .onScrollDown: classes.append("minimizes-bar minimize-on-scroll-down")
        case .onScrollUp: classes.append("minimizes-bar minimize-on-scroll-up")
        }
        if barStyle == .floating { classes.append("bar-floating") }
        return classes.joined(separator: " ")
    }

    private static func pixels(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))px" : "\(rounded)px"
    }
}
