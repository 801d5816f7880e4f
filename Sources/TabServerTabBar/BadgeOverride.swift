// SPDX-License-Identifier: Apache-2.0
/// A visitor's own version of a tab's badge, replacing the model's global badge for
/// them alone: hidden once they have seen the tab, or a badge of their own (their
/// unread count, say).
public enum BadgeOverride: Sendable, Hashable {
    /// No badge for this visitor, whatever the model says.
    case hidden
    /// This badge instead of the model's.
    case badge(Badge)
}

/// JSON shape: `{"hidden": true}` or `{"badge": {"count": 3}}`, kept explicit because
/// these are stored in sessions and read back by later versions of the server.
extension BadgeOverride: Codable {
    private enum CodingKeys: String, CodingKey {
        case hidden, badge
    }

    /// Reads `{"hidden": true}` or `{"badge": …}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let badge = try container.decodeIfPresent(Badge.self, forKey: .badge) {
            self = .badge(badge)
        } else if try container.decodeIfPresent(Bool.self, forKey: .hidden) == true {
            self = .hidden
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a badge override needs \"hidden\": true or a \"badge\""))
        }
    }

    /// Writes `{"hidden": true}` or `{"badge": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hidden: try container.encode(true, forKey: .hidden)
        case .badge(let badge): try container.encode(badge, forKey: .badge)
        }
    }
}
