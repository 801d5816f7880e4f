// SPDX-License-Identifier: Apache-2.0
/// JSON keys are the property names. Empty and `nil` members are left out when
/// encoding and default when decoding, which keeps sessions small and lets states
/// written by older versions load.
extension TabBarState: Codable {
    private enum CodingKeys: String, CodingKey {
        case selectedTabID, order, locations, badgeOverrides, version, isSidebarHidden, hiddenChoices, collapsedGroups
    }

    /// Reads a stored state; missing keys take the fresh-state values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        selectedTabID = try container.decodeIfPresent(String.self, forKey: .selectedTabID)
        order = try container.decodeIfPresent([String].self, forKey: .order)
        locations = try container.decodeIfPresent([String: String].self, forKey: .locations) ?? [:]
        badgeOverrides = try container.decodeIfPresent([String: BadgeOverride].self, forKey: .badgeOverrides) ?? [:]
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 0
        isSidebarHidden = try container.decodeIfPresent(Bool.self, forKey: .isSidebarHidden)
        hiddenChoices = try container.decodeIfPresent([String: Bool].self, forKey: .hiddenChoices) ?? [:]
        collapsedGroups = try container.decodeIfPresent([String].self, forKey: .collapsedGroups) ?? []
    }

    /// Writes the state, leaving out `nil` and empty members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(selectedTabID, forKey: .selectedTabID)
        try container.encodeIfPresent(order, forKey: .order)
        if !locations.isEmpty { try container.encode(locations, forKey: .locations) }
        if !badgeOverrides.isEmpty { try container.encode(badgeOverrides, forKey: .badgeOverrides) }
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(isSidebarHidden, forKey: .isSidebarHidden)
        if !hiddenChoices.isEmpty { try container.encode(hiddenChoices, forKey: .hiddenChoices) }
        if !collapsedGroups.isEmpty { try container.encode(collapsedGroups, forKey: .collapsedGroups) }
    }
}
