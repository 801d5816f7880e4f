// SPDX-License-Identifier: Apache-2.0
/// JSON keys are the property names; a missing key takes the default, so
/// `"appearance": {"tint": "#ff2d55"}` changes only the tint.
///
/// Colours of the bar may be a light and dark pair: `"tint": {"light": "#007aff",
/// "dark": "#0a84ff"}`. The bar's own look may also be given as UIKit's
/// `standardAppearance` (background, shadowColor, isTranslucent), which wins over the
/// same keys at the top level, and `scrollEdgeAppearance` (`{}` or `true` for the
/// transparent default).
extension TabBarAppearance: Codable {
    private enum CodingKeys: String, CodingKey {
        case tint, unselectedTint, background, isTranslucent, itemPositioning
        case selectionIndicatorTint, shadowColor, scrollEdgeAppearance, standardAppearance
        case itemWidth, itemSpacing, titlePosition, regularLayout, backgroundImage, sidebarToggle, minimizeBehavior
        case barStyle, platformStyle
    }

    private enum PairKeys: String, CodingKey {
        case light, dark
    }

    private enum StandardKeys: String, CodingKey {
        case background, shadowColor, isTranslucent, backgroundImage
    }

    /// Reads an appearance; missing keys take the defaults. Colours are validated by the model.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tint = try Self.pair(container, .tint)
        let unselected = try Self.pair(container, .unselectedTint)
        var background = try Self.pair(container, .background)
        var shadow = try container.decodeIfPresent(String.self, forKey: .shadowColor)
        var translucent = try container.decodeIfPresent(Bool.self, forKey: .isTranslucent)
        var image = try container.decodeIfPresent(String.self, forKey: .backgroundImage)
        if container.contains(.standardAppearance) {
            let standard = try container.nestedContainer(keyedBy: StandardKeys.self, forKey: .standardAppearance)
            if standard.contains(.background) {
                if let single = try? standard.decode(String.self, forKey: .background) {
                    background = (single, nil)
                } else {
                    let pair = try standard.nestedContainer(keyedBy: PairKeys.self, forKey: .background)
                    background = (
                        try pair.decode(String.self, forKey: .light),
                        try pair.decodeIfPresent(String.self, forKey: .dark)
                    )
                }
            }
            shadow = try standard.decodeIfPresent(String.self, forKey: .shadowColor) ?? shadow
            translucent = try standard.decodeIfPresent(Bool.self, forKey: .isTranslucent) ?? translucent
            image = try standard.decodeIfPresent(String.self, forKey: .backgroundImage) ?? image
        }
        self.init(
            tint: tint.light ?? Self.defaultTint,
            unselectedTint: unselected.light ?? Self.defaultUnselectedTint,
            background: background.light ?? Self.defaultBackground,
            isTranslucent: translucent ?? true,
            itemPositioning: try container.decodeIfPresent(ItemPositioning.self, forKey: .itemPositioning)
                ?? .automatic)
        darkTint = tint.dark
        darkUnselectedTint = unselected.dark
        darkBackground = background.dark
        selectionIndicatorTint = try container.decodeIfPresent(String.self, forKey: .selectionIndicatorTint)
        shadowColor = shadow
        backgroundImage = image
        if container.contains(.scrollEdgeAppearance) {
            if let enabled = try? container.decode(Bool.self, forKey: .scrollEdgeAppearance) {
                scrollEdgeAppearance = enabled ? ScrollEdgeAppearance() : nil
            } else {
                let edge = try container.nestedContainer(keyedBy: StandardKeys.self, forKey: .scrollEdgeAppearance)
                scrollEdgeAppearance = ScrollEdgeAppearance(
                    background: try edge.decodeIfPresent(String.self, forKey: .background) ?? "transparent",
                    shadowColor: try edge.decodeIfPresent(String.self, forKey: .shadowColor) ?? "transparent")
            }
        }
        itemWidth = try container.decodeIfPresent(Double.self, forKey: .itemWidth)
        itemSpacing = try container.decodeIfPresent(Double.self, forKey: .itemSpacing)
        titlePosition = try container.decodeIfPresent(TitlePosition.self, forKey: .titlePosition) ?? .automatic
        regularLayout = try container.decodeIfPresent(RegularLayout.self, forKey: .regularLayout) ?? .bottomBar
        sidebarToggle = try container.decodeIfPresent(Bool.self, forKey: .sidebarToggle)
        minimizeBehavior = try container.decodeIfPresent(MinimizeBehavior.self, forKey: .minimizeBehavior) ?? .never
        barStyle = try container.decodeIfPresent(BarStyle.self, forKey: .barStyle) ?? .classic
        platformStyle = try container.decodeIfPresent(PlatformStyle.self, forKey: .platformStyle) ?? .automatic
    }

    /// A colour given as a string or as `{"light": …, "dark": …}`.
    private static func pair(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> (
        light: String?, dark: String?
    ) {
        guard container.contains(key) else { return (nil, nil) }
        if let single = try? container.decode(String.self, forKey: key) { return (single, nil) }
        let pair = try container.nestedContainer(keyedBy: PairKeys.self, forKey: key)
        return (try pair.decode(String.self, forKey: .light), try pair.decodeIfPresent(String.self, forKey: .dark))
    }

    /// Writes every field; pairs as `{"light", "dark"}` objects.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func encodePair(_ light: String, _ dark: String?, _ key: CodingKeys) throws {
            if let dark {
                var pair = container.nestedContainer(keyedBy: PairKeys.self, forKey: key)
                try pair.encode(light, forKey: .light)
                try pair.encode(dark, forKey: .dark)
            } else {
                try container.encode(light, forKey: key)
            }
        }
        try encodePair(tint, darkTint, .tint)
        try encodePair(unselectedTint, darkUnselectedTint, .unselectedTint)
        try encodePair(background, darkBackground, .background)
        try container.encode(isTranslucent, forKey: .isTranslucent)
        try container.encode(itemPositioning, forKey: .itemPositioning)
        try container.encodeIfPresent(selectionIndicatorTint, forKey: .selectionIndicatorTint)
        try container.encodeIfPresent(shadowColor, forKey: .shadowColor)
        try container.encodeIfPresent(backgroundImage, forKey: .backgroundImage)
        try container.encodeIfPresent(scrollEdgeAppearance, forKey: .scrollEdgeAppearance)
        try container.encodeIfPresent(itemWidth, forKey: .itemWidth)
        try container.encodeIfPresent(itemSpacing, forKey: .itemSpacing)
        try container.encode(titlePosition, forKey: .titlePosition)
        try container.encode(regularLayout, forKey: .regularLayout)
        try container.encodeIfPresent(sidebarToggle, forKey: .sidebarToggle)
        try container.encode(minimizeBehavior, forKey: .minimizeBehavior)
        try container.encode(barStyle, forKey: .barStyle)
        try container.encode(platformStyle, forKey: .platformStyle)
    }
}
