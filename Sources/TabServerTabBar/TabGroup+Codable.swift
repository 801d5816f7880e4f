// SPDX-License-Identifier: Apache-2.0
/// JSON keys are the property names; `id`, `title` and `icon` are required.
extension TabGroup: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, icon, selectedIcon, allowsReordering
    }

    /// Reads a group; validation is the model's job.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            icon: try container.decode(String.self, forKey: .icon),
            selectedIcon: try container.decodeIfPresent(String.self, forKey: .selectedIcon),
            allowsReordering: try container.decodeIfPresent(Bool.self, forKey: .allowsReordering) ?? false)
    }

    /// Writes the group; `selectedIcon` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(icon, forKey: .icon)
        try container.encodeIfPresent(selectedIcon, forKey: .selectedIcon)
        try container.encode(allowsReordering, forKey: .allowsReordering)
    }
}
