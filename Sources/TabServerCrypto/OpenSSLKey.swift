// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// One libcrypto `EVP_PKEY`, freed with its owner. Every key type of this module keeps
/// its key in one of these, so no OpenSSL pointer leaves the module.
///
/// `@unchecked Sendable` is safe: the key is never changed after it is made; libcrypto
/// lets several threads use one key at once as long as each operation has a context
/// of its own (every method here makes one and frees it).
final class OpenSSLKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// A key parsed from DER by one of libcrypto's `d2i_` functions.
    static func decode(
        _ der: [UInt8],
        _ parse: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?
    ) -> OpenSSLKey? {
        der.withUnsafeBufferPointer { buffer -> OpenSSLKey? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let key = parse(&cursor, buffer.count) else {
                ERR_clear_error()
                return nil
            }
            return OpenSSLKey(key)
        }
    }

    /// The curve's name as libcrypto says it ("prime256v1"), nil for a key without one.
    var groupName: String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The oldest error on this thread's libcrypto queue as text, and the queue cleared.
    static func reason() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown libcrypto error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
