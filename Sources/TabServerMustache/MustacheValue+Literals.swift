// SPDX-License-Identifier: Apache-2.0
// Literals let views write contexts the way they read in the template:
// `["title": "Music", "tabs": [...], "badge": nil]`.

extension MustacheValue: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    /// `true` / `false` are `.bool`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    /// Integer literals are `.int`.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    /// Floating-point literals are `.double`.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// String literals, interpolated ones included (`"\(count) items"`), are `.string`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    /// Array literals are `.array`.
    public init(arrayLiteral elements: MustacheValue...) {
        self = .array(elements)
    }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Dictionary literals with `String` keys are `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
