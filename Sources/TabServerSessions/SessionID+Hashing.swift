// SPDX-License-Identifier: Apache-2.0

extension SessionID {
    /// The hash a dictionary keyed by ids places an id by: its 128 bits folded and mixed
    /// with the dictionary's seed by a 64-bit finalizer (Stafford's "mix13", as in
    /// SplitMix64), in place of SipHash over both words. An id is a dictionary key several
    /// times a request (a store's cache, its pending writes, its commit groups), and
    /// SipHash over both words would be the dominant cost of each look-up.
    ///
    /// SipHash guards a table against keys chosen to collide. Ids need no such guard: the
    /// keys a table holds are ids this server drew from the CSPRNG (or derived with HMAC,
    /// for a user's record), never values a client chose; a client's cookie only looks
    /// one up. The seed still differs between tables, as the standard library expects.
    /// Equal ids hash equal, so this agrees with the synthesized `hash(into:)`.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = high ^ (low &<< 1 | low &>> 63) ^ UInt64(truncatingIfNeeded: seed)
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31))
    }
}
