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
            return ("center", Self.centeredItemMaxWidth)
        case .fill:
            return ("space-evenly", "none")
        }
    }
}
