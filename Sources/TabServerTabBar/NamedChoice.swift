// SPDX-License-Identifier: Apache-2.0
/// A value `tabs.json` spells by name (a tab's role, a bar style, a platform style): any
/// other name is refused with the names it may take, so a typo stops start-up with a
/// message that says how to fix it.
protocol NamedChoice: RawRepresentable<String>, CaseIterable {
    /// What the value is, for the error message: "bar style".
    static var choiceDescription: String { get }
}

extension NamedChoice {
    /// Decodes one of the names, or throws `DecodingError.dataCorrupted`:
    /// `unknown bar style 'glass' (use "classic" or "floating")`.
    init(decodingNameFrom decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "unknown \(Self.choiceDescription) \(ErrorText.quoted(name)) (use \(Self.allowedNames))"))
        }
        self = value
    }

    /// `"a", "b" or "c"`.
    private static var allowedNames: String {
        let names = allCases.map { "\"\($0.rawValue)\"" }
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
