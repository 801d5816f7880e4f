// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc  // pow, for the sRGB curve
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text colours that stay readable (WCAG 2 contrast of 4.5:1) while keeping as much of
/// the configured tint as they can: a tint that already reads well is used exactly,
/// one that does not is mixed towards black (light mode) or white (dark mode) only as
/// far as needed. Icons and fills keep the exact tint; only text is adjusted.
///
/// ```swift
/// ReadableColor.text("#007aff", on: ["#f9f9f9", "#f2f2f7"], towards: .black) // "#0064d1" or so
/// ReadableColor.text("#0a84ff", on: ["#121214"], towards: .white)           // "#0a84ff": fine as is
/// ```
public enum ReadableColor {
    /// What a colour is mixed with when it needs more contrast.
    public enum Direction: Sendable {
        /// Darker, for light backgrounds.
        case black
        /// Lighter, for dark backgrounds.
        case white
    }

    /// The minimum contrast ratio of normal-size text (WCAG 2, level AA).
    public static let minimumContrast = 4.5

    /// `color` (a hex colour), or the least mix of it towards `direction` that has at
    /// least `minimum` contrast with every colour of `backgrounds`; nil when a colour
    /// is not hex (named colours are left to the stylesheet's fallback).
    public static func text(
        _ color: String, on backgrounds: [String], towards direction: Direction, minimum: Double = minimumContrast
    ) -> String? {
        guard let base = rgb(color) else { return nil }
        let grounds = backgrounds.compactMap(rgb)
        guard grounds.count == backgrounds.count else { return nil }
        let target: (Double, Double, Double) = direction == .black ? (0, 0, 0) : (255, 255, 255)
        for step in 0...100 {
            let t = Double(step) / 100
            let mixed = (
                base.0 + (target.0 - base.0) * t, base.1 + (target.1 - base.1) * t, base.2 + (target.2 - base.2) * t
            )
            if grounds.allSatisfy({ contrast(mixed, $0) >= minimum }) { return hex(mixed) }
        }
        return hex(target)
    }

    /// The contrast ratio of two colours, 1 to 21.
    public static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Red, green and blue (0–255) of `#rgb`, `#rrggbb` or `#rrggbbaa` (alpha ignored).
    static func rgb(_ color: String) -> (Double, Double, Double)? {
        guard color.hasPrefix("#"), CSSColor.isValid(color) else { return nil }
        var digits = Array(color.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count >= 6 else { return nil }
        func channel(_ index: Int) -> Double {
            Double(Int(String(digits[index..<index + 2]), radix: 16) ?? 0)
        }
        return (channel(0), channel(2), channel(4))
    }

    private static func luminance(_ color: (Double, Double, Double)) -> Double {
        func linear(_ value: Double) -> Double {
            let c = value / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.0) + 0.7152 * linear(color.1) + 0.0722 * linear(color.2)
    }

    private static func hex(_ color: (Double, Double, Double)) -> String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for value in [color.0, color.1, color.2] {
            let byte = Int(max(0, min(255, value.rounded())))
            text.append(digits[byte / 16])
            text.append(digits[byte % 16])
        }
        return text
    }
}
