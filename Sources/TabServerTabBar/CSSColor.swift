// SPDX-License-Identifier: Apache-2.0
/// The one gate every colour passes before it may reach a `style` attribute.
///
/// Colours come from the tab definition file and from per-visitor badge overrides,
/// and they end up inside `style="--tab-tint:…"`. Anything that could close the
/// declaration or smuggle in `url(…)`, `expression(…)` or quotes must be refused, so
/// only two shapes are accepted:
/// - hex: `#rgb`, `#rrggbb` or `#rrggbbaa` (digits `0-9`, `a-f`, `A-F`);
/// - a named colour: 1–32 lowercase letters `a-z` (`red`, `rebeccapurple`, `transparent`).
///
/// ```swift
/// CSSColor.isValid("#007aff")                 // true
/// CSSColor.isValid("red; background: url(x)") // false
/// ```
public enum CSSColor {
    /// Longest accepted colour name; the longest CSS name, `lightgoldenrodyellow`, has 20.
    public static let maxNameLength = 32

    /// Whether `value` is a hex colour or a plain lowercase colour name (see the type's notes).
    public static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "#") {
            let digits = bytes.dropFirst()
            guard [3, 6, 8].contains(digits.count) else { return false }
            return digits.allSatisfy(isHexDigit)
        }
        guard bytes.count <= maxNameLength else { return false }
        return bytes.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
