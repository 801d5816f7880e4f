/// JSON keys are the property names; a missing key takes the default, so
/// `"appearance": {"tint": "#ff2d55"}` changes only the tint.
extension TabBarAppearance: Codable {
    private enum CodingKeys: String, CodingKey {
        case tint, unselectedTint, background, isTranslucent, itemPositioning
    }

    /// Reads an appearance; missing keys take the defaults. Colours are validated by the model.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tint: try container.decodeIfPresent(String.self, forKey: .tint) ?? Self.defaultTint,
            unselectedTint: try container.decodeIfPresent(String.self, forKey: .unselectedTint)
                ?? Self.defaultUnselectedTint,
            background: try container.decodeIfPresent(String.self, forKey: .background)
                ?? Self.defaultBackground,
            isTranslucent: try container.decodeIfPresent(Bool.self, forKey: .isTranslucent) ?? true,
            itemPositioning: try container.decodeIfPresent(ItemPositioning.self, forKey: .itemPositioning)
                ?? .automatic)
    }

    /// Writes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tint, forKey: .tint)
        try container.encode(unselectedTint, forKey: .unselectedTint)
        try container.encode(background, forKey: .background)
        try container.encode(isTranslucent, forKey: .isTranslucent)
        try container.encode(itemPositioning, forKey: .itemPositioning)
    }
}
