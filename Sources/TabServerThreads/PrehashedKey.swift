// SPDX-License-Identifier: Apache-2.0

/// A dictionary key that is already a hash (a `hashValue`, an FNV-1a of a cookie): the
/// table mixes it with its seed by a 64-bit finalizer (SplitMix64's) instead of hashing
/// it again with SipHash, which would be the dominant cost of a look-up. A value
/// that SipHash made already needs no second guard; one a client can choose (a cookie's
/// FNV-1a) is only looked up and held while its requests run.
package struct PrehashedKey: Hashable, Sendable {
    package let value: Int

    package init(_ value: Int) { self.value = value }

    package func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(truncatingIfNeeded: value ^ seed)
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31))
    }
}
