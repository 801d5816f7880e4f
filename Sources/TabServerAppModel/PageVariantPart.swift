// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A part of every page's variant that the app decides from the request (a theme cookie,
/// a client hint): pages that differ in it are cached apart, and every page names its
/// `fields` in `Vary`. Given with `Application.pageVariant(varyingOn:_:)`.
public struct PageVariantPart: Sendable {
    /// The request fields the part is read from (`Cookie`, `Sec-CH-Prefers-Color-Scheme`).
    public let fields: [String]
    /// The part for a request: a short text ("dark"); "" for none.
    public let decide: @Sendable (HTTPRequest) -> String

    public init(fields: [String], decide: @escaping @Sendable (HTTPRequest) -> String) {
        self.fields = fields
        self.decide = decide
    }
}
