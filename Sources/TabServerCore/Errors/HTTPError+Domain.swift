// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerTabBar
import TabServerWeb

// The one place where the errors of the model and the stores become HTTP statuses.
extension HTTPError {
    /// Customization errors: a stale page is a 409 (the visitor's state moved on in
    /// another window); everything else is a malformed request, 400, naming the field.
    init(_ error: CustomizationError) {
        switch error {
        case .stale:
            self = .conflict(
                "The tab arrangement changed since this page was shown (perhaps in another window). Nothing was changed; here is the current arrangement."
            )
        case .unknownTab, .notCustomizable, .notHideable, .cannotHide, .cannotMove:
            self = .badRequest("\(Self.sentence(error.description))", field: "tab")
        case .duplicateInOrder, .invalidOrder:
            self = .badRequest("\(Self.sentence(error.description))", field: "order")
        }
    }

    private static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalized = first.uppercased() + text.dropFirst()
        return capitalized.hasSuffix(".") ? capitalized : capitalized + "."
    }
}
