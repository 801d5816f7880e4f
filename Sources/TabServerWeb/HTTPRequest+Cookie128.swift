// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP

// Apart from `HTTPRequest+Cookies.swift`, which the cookie fuzzer compiles on its own.
extension HTTPRequest {
    /// The first cookie called `name` read as a 128-bit value in 22 characters of
    /// unpadded base64url (the form of a session id), where its bytes are stored: no
    /// string of the value (an allocation on every page with a session).
    public func cookie128(_ name: String) -> Cookie128 {
        var name = name
        return name.withUTF8 { wanted in
            cookie(named: wanted) { bytes in
                Base64URL.decode128(bytes).map { Cookie128.value(high: $0.high, low: $0.low) } ?? .malformed
            }
        } ?? .absent
    }

    /// What `cookie128(_:)` found.
    public enum Cookie128: Sendable, Equatable {
        /// No cookie of that name.
        case absent
        /// A value of another form (length, characters, trailing bits).
        case malformed
        /// The 128 bits, big-endian.
        case value(high: UInt64, low: UInt64)
    }
}
