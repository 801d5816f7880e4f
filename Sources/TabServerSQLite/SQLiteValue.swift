// SPDX-License-Identifier: Apache-2.0
/// A value bound to or read from a statement.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, if this is one.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, if this is a real (or an integer, converted).
    public var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The text, if this is text.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// True when this is SQL's NULL.
    public var isNull: Bool { self == .null }

    /// The bytes of a blob or text.
    public var bytes: [UInt8]? {
        switch self {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}
