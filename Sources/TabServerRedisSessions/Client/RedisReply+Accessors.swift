// SPDX-License-Identifier: Apache-2.0
extension RedisReply {
    /// The bytes of a bulk string, else nil.
    public var bytes: [UInt8]? {
        if case .bulkString(let bytes) = self { return bytes }
        return nil
    }

    /// A bulk string or status as text (invalid UTF-8 is repaired), else nil.
    public var string: String? {
        switch self {
        case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// The value of an integer reply, or of a bulk string holding a decimal integer
    /// (Redis returns hash fields as strings), else nil.
    public var integer: Int? {
        switch self {
        case .integer(let value): value
        case .bulkString(let bytes): Int(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    /// The elements of an array reply, else nil.
    public var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is the null reply.
    public var isNull: Bool { self == .null }

    /// The message of an error reply, else nil.
    public var errorMessage: String? {
        if case .error(let message) = self { return message }
        return nil
    }
}
