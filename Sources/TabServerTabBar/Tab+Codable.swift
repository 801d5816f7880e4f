// SPDX-License-Identifier: Apache-2.0
/// JSON keys are the property names. Only `id`, `title` and `icon` are required, so a
/// minimal tab definition stays short; every other key falls back to the same default
/// as the memberwise initializer.
extension Tab: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, icon, selectedIcon, badge, isEnabled, isCustomizable
        case clearsBadgeOnSelect, template, group, role, preferredPlacement, allowsHiding, isHiddenByDefault
    }

    /// Reads a tab; only `id`, `title` and `icon` are required. Validation is the model's job.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            icon: try container.decode(String.self, forKey: .icon),
            selectedIcon: try container.decodeIfPresent(String.self, forKey: .selectedIcon),
            badge: try container.decodeIfPresent(Badge.self, forKey: .badge),
            isEnabled: try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true,
            isCustomizable: try container.decodeIfPresent(Bool.self, forKey: .isCustomizable) ?? true,
            clearsBadgeOnSelect: try container.decodeIfPresent(Bool.self, forKey: .clearsBadgeOnSelect) ?? false,
            template: try container.decodeIfPresent(String.self, forKey: .template))
        group = try container.decodeIfPresent(String.self, forKey: .group)
        role = try container.decodeIfPresent(TabRole.self, forKey: .role) ?? .standard
        preferredPlacement =
            try container.decodeIfPresent(TabPlacement.self, forKey: .preferredPlacement) ?? .automatic
        allowsHiding = try container.decodeIfPresent(Bool.self, forKey: .allowsHiding) ?? false
        isHiddenByDefault = try container.decodeIfPresent(Bool.self, forKey: .isHiddenByDefault) ?? false
    }

    /// Writes every field, so the output documents the defaults too.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(icon, forKey: .icon)
        try container.encodeIfPresent(selectedIcon, forKey: .selectedIcon)
        try container.encodeIfPresent(badge, forKey: .badge)
        try container.encode(isEnabled, forKey: .isEnabled)
        try container.encode(isCustomizable, forKey: .isCustomizable)
        try container.encode(clearsBadgeOnSelect, forKey: .clearsBadgeOnSelect)
        try container.encode(template, forKey: .template)
        try container.encodeIfPresent(group, forKey: .group)
        if role != .standard { try container.encode(role, forKey: .role) }
        if preferredPlacement != .automatic { try container.encode(preferredPlacement, forKey: .preferredPlacement) }
        if allowsHiding { try container.encode(allowsHiding, forKey: .allowsHiding) }
        if isHiddenByDefault { try container.encode(isHiddenByDefault, forKey: .isHiddenByDefault) }
    }
}
