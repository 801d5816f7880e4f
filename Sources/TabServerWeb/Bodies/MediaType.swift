// SPDX-License-Identifier: Apache-2.0

/// A `Content-Type` value taken apart: the media type, lowercased, and its parameters
/// (`multipart/form-data; boundary="a b"`).
public struct MediaType: Sendable, Hashable {
    /// `type/subtype`, lowercased, without parameters.
    public var essence: String
    /// Parameters in order, names lowercased, quoted values unquoted.
    public var parameters: [(name: String, value: String)]

    /// The media type of a header value (nil for an empty one).
    public init?(_ value: String) {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        let essence = (parts.first ?? "").trimmingASCIISpaces().lowercased()
        guard !essence.isEmpty else { return nil }
        self.essence = essence
        parameters = parts.dropFirst().compactMap { part in
            let trimmed = part.trimmingASCIISpaces()
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].trimmingASCIISpaces().lowercased()
            var text = trimmed[trimmed.index(after: equals)...].trimmingASCIISpaces()
            if text.count >= 2 && text.first == "\"" && text.last == "\"" { text = text.dropFirst().dropLast() }
            return (name, String(text))
        }
    }

    /// The first parameter of that name (lowercase).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    public static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        lhs.essence == rhs.essence && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(essence)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.value)
        }
    }

    /// `application/x-www-form-urlencoded`.
    public static let urlEncodedForm = "application/x-www-form-urlencoded"
    /// `multipart/form-data`.
    public static let multipartForm = "multipart/form-data"
    /// `application/json`.
    public static let json = "application/json"
}
