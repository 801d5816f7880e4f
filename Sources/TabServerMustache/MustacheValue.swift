// SPDX-License-Identifier: Apache-2.0
/// A value a template renders.
///
/// Views build these explicitly instead of handing the engine arbitrary Swift values:
/// an enum is `Sendable`, needs no `Mirror` reflection, and makes name lookup a
/// dictionary access.
///
/// ```swift
/// let context: MustacheValue = [
///     "title": "Music",
///     "badge": 3,
///     "tabs": [["id": "home", "selected": true], ["id": "music", "selected": false]],
/// ]
/// ```
///
/// Truthiness (what `{{#name}}` and `{{^name}}` test) follows the spec's own
/// illustration, JavaScript's `!!data`: `null`, `false`, `0`, `0.0`, NaN, `""` and the
/// empty list are falsey; everything else is truthy, including every object (even `[:]`).
/// A non-empty list is iterated rather than tested.
public enum MustacheValue: Sendable, Hashable {
    /// No value: renders as nothing and is falsey.
    case null
    /// Renders as `true` or `false`.
    case bool(Bool)
    /// Renders in decimal; `0` is falsey.
    case int(Int)
    /// Renders like JSON numbers do in JavaScript: integral values without a fraction
    /// (`2.0` → `2`), others in the shortest form that reads back the same (`1.21`).
    case double(Double)
    /// Renders HTML-escaped in `{{name}}` and as is in `{{{name}}}`; `""` is falsey.
    case string(String)
    /// Iterated by sections; the empty list is falsey. Renders as nothing when interpolated.
    case array([MustacheValue])
    /// Pushed onto the context stack by sections. Renders as nothing when interpolated.
    case object([String: MustacheValue])
}

extension MustacheValue {
    /// Whether a section renders for this value (see the type's documentation).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array(let values): !values.isEmpty
        case .object: true
        }
    }

    /// The value stored under `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> MustacheValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }
}
