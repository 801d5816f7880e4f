// SPDX-License-Identifier: Apache-2.0
import CHiredis

extension RedisReply {
    /// A copy of hiredis's reply tree (the caller frees the original); nil for a reply
    /// type this hiredis version does not define.
    init?(_ reply: UnsafePointer<redisReply>) {
        let node = reply.pointee
        switch node.type {
        case REDIS_REPLY_STRING:
            self = .bulkString(Self.bytes(node.str, node.len))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(node.integer))
        case REDIS_REPLY_NIL:
            self = .null
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(node.elements)
            for index in 0..<node.elements {
                guard let child = node.element[index], let element = RedisReply(UnsafePointer(child)) else {
                    return nil
                }
                elements.append(element)
            }
            self = .array(elements)
        default:
            return nil
        }
    }

    private static func bytes(_ start: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }
}
