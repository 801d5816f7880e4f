// SPDX-License-Identifier: Apache-2.0
/// A short fingerprint of a visitor's tab order, carried by every customize form.
///
/// A customize post is stale when the *arrangement* changed since its page was shown
/// (another window moved a tab): then it answers 409 and changes nothing. Comparing the
/// whole state's version instead would also refuse posts after merely browsing in
/// another window, which changes the state but not the arrangement.
package enum LayoutFingerprint {
    /// FNV-1a (64-bit) over the ids, as 16 hex digits. Not a security measure: it only
    /// tells two arrangements apart.
    package static func of(_ order: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in order {
            for byte in id.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0x2c  // separator, so ["ab","c"] differs from ["a","bc"]
            hash &*= 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
