// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// `JSONBytesEncoder`'s fast path: writes a value's JSON into one buffer as its
/// `encode(to:)` calls come, with no tree in between. An object's members are written in
/// the order they come; when the object ends, they are put in key order in place, if they
/// are not in it already (a key written twice keeps its last value).
///
/// It takes the shapes synthesized `Codable` conformances make: containers used in order,
/// each one finished before its parent writes again. Anything else marks the pass
/// `spoiled` and `JSONBytesEncoder` encodes the value again with its tree, which takes every
/// shape and names the path of an error: a container written after its parent moved on, a
/// super encoder, a coding path read, a value that encodes nothing or two single values,
/// a number JSON cannot hold, two keys of an object equal as strings but not in their
/// bytes, or any error thrown.
///
/// No tree on this path: building one takes small allocations (a slot per value, a box and
/// an array per object or array), a dozen for a two-item array, and their release.
///
/// Each value gets an encoder of its own, and the encoder takes its room (its buffer and
/// stacks) from a `JSONScratch` kept between values and gives it back when the value is
/// written: a value costs the encoder and its bytes' array besides what `Codable`
/// allocates itself. A value that kept its encoder or a container (which `Codable`
/// forbids) writes into an encoder left with no room of its own, never into another
/// value's.
final class JSONStreamEncoder {
    /// The bytes written so far.
    @exclusivity(unchecked) var out = JSONOutput()
    /// Set when the value did something this path does not take: its bytes are discarded.
    @exclusivity(unchecked) private(set) var spoiled = false
    /// The containers still open, outermost first.
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// The members of the open objects, each object's after those of the objects around it.
    @exclusivity(unchecked) private var members: [Member] = []
    /// The last value's token: each value being encoded, and each nested container, has
    /// its own, so a container can tell its frame from another one at the same depth.
    @exclusivity(unchecked) private var lastToken = 0
    /// The token of the last value that wrote a single value.
    @exclusivity(unchecked) private var lastSingleToken = -1

    /// An open object or array.
    struct Frame {
        let token: Int
        let isObject: Bool
        /// Where its `{` or `[` is in `out`.
        let start: Int
        /// Its first member's index in `members` (objects).
        let firstMember: Int
        /// Members or items written.
        var count = 0
        /// Whether its members came in key order so far, each key after the one before.
        var inOrder = true
        /// Whether a key so far had a character outside ASCII: two such keys (or one and
        /// an ASCII one) may be equal as `String`s but not in their bytes.
        var hasOtherKeys = false
    }

    /// An object's member: where its `"key":value` starts in `out`, and where its key (with
    /// its quotes) ends. The key itself is kept only when it is not plain (see `KeyForm`):
    /// else its bytes in `out` are the key.
    struct Member {
        let start: Int
        let keyEnd: Int
        let key: String?
    }

    private init() {}

    /// The JSON of `value`, or nil when this path does not take it (or it threw): the
    /// caller then encodes it with the tree.
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8]? {
        let scratch = JSONScratch.take()
        defer { JSONScratch.giveBack(scratch) }
        return encode(value, with: scratch)
    }

    /// `encode(_:)` in the room of `scratch`, which it leaves empty for the next value.
    static func encode<Value: Encodable>(_ value: Value, with scratch: JSONScratch) -> [UInt8]? {
        let encoder = JSONStreamEncoder()
        encoder.trade(with: scratch)
        defer {
            encoder.out.removeAll()
            encoder.frames.removeAll(keepingCapacity: true)
            encoder.members.removeAll(keepingCapacity: true)
            encoder.trade(with: scratch)
        }
        do {
            try encoder.write(value, token: encoder.newToken())
        } catch {
            // The tree encodes it again, and throws with the path of the value at fault.
            return nil
        }
        return encoder.spoiled ? nil : encoder.out.array()
    }

    /// Trades room with `scratch`: the buffer and the stacks.
    private func trade(with scratch: JSONScratch) {
        out.trade(with: &scratch.out)
        swap(&frames, &scratch.frames)
        swap(&members, &scratch.members)
    }

    /// Containers open now.
    var openFrames: Int { frames.count }

    /// Marks the pass as one this path does not take.
    func spoil() { spoiled = true }

    func newToken() -> Int {
        lastToken += 1
        return lastToken
    }

    /// Writes `value` where the next value goes (after a member's key, an item's comma or
    /// at the start), as the value `token` stands for; its containers end with it.
    func write<Value: Encodable>(_ value: Value, token: Int) throws {
        if let special = JSONBytesEncoder.special(value) {
            special.write(to: &out)
            return
        }
        let depth = frames.count
        let before = out.count
        try value.encode(to: Writer(encoder: self, token: token))
        close(above: depth)
        if out.count == before { spoil() }
    }

    /// Opens an object or array for the value or nested container `token`, or takes its
    /// open one again (a value may ask for its container twice); the frame's index, or nil
    /// when the pass is spoiled.
    func open(token: Int, isObject: Bool) -> Int? {
        guard !spoiled else { return nil }
        if let index = frames.lastIndex(where: { $0.token == token }) {
            guard frames[index].isObject == isObject else {
                spoil()
                return nil
            }
            close(above: index + 1)
            return index
        }
        guard lastSingleToken != token else {
            spoil()
            return nil
        }
        frames.append(Frame(token: token, isObject: isObject, start: out.count, firstMember: members.count))
        out.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return frames.count - 1
    }

    /// Makes the frame at `index` (of `token`) the innermost open one, ending those inside
    /// it; false (and the pass spoiled) when it has already ended.
    private func resume(_ index: Int, token: Int) -> Bool {
        guard !spoiled, index < frames.count, frames[index].token == token else {
            spoil()
            return false
        }
        close(above: index + 1)
        return true
    }

    /// Starts the member `key` of the object at `index`: its comma, key and colon. False
    /// when nothing may be written.
    func member(_ key: String, of index: Int, token: Int) -> Bool {
        guard resume(index, token: token) else { return false }
        let first = frames[index].count == 0
        if !first { out.append(UInt8(ascii: ",")) }
        frames[index].count += 1
        let start = out.count
        let form = writeKey(key)
        let member = Member(start: start, keyEnd: out.count, key: form == .plain ? nil : key)
        if form == .other { frames[index].hasOtherKeys = true }
        // The members of the objects inside this one are gone: the last one left is the
        // one before this member.
        if !first, frames[index].inOrder, let last = members.last, compareKeys(last, member) >= 0 {
            frames[index].inOrder = false
        }
        members.append(member)
        out.append(UInt8(ascii: ":"))
        return true
    }

    /// What a key is made of, for comparing it with others.
    enum KeyForm {
        /// ASCII, written as it is: its bytes in `out` are the key.
        case plain
        /// ASCII, with characters escaped.
        case escaped
        /// With characters outside ASCII.
        case other
    }

    /// Writes `key` as a JSON string.
    private func writeKey(_ key: String) -> KeyForm {
        var key = key
        let plain = key.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 || JSONString.needsEscape(byte) { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if plain { return .plain }
        JSONBytesEncoder.writeString(key, to: &out)
        return key.utf8.contains { $0 >= 0x80 } ? .other : .escaped
    }

    /// Starts the next item of the array at `index`. False when nothing may be written.
    func item(of index: Int, token: Int) -> Bool {
        guard resume(index, token: token) else { return false }
        if frames[index].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[index].count += 1
        return true
    }

    /// Items written to the array at `index`.
    func count(of index: Int) -> Int { index < frames.count ? frames[index].count : 0 }

    /// Whether the value `token` may write its single value now (nothing inside it is
    /// open, and it has written none yet); marks that it has.
    func single(token: Int, depth: Int) -> Bool {
        guard !spoiled, frames.count == depth, lastSingleToken != token else {
            spoil()
            return false
        }
        lastSingleToken = token
        return true
    }

    /// Ends the frames from `depth` on, innermost first.
    private func close(above depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            if frame.isObject {
                if frame.hasOtherKeys && frame.count > 1 && hasKeysEqualOnlyAsStrings(frame) {
                    // `JSONEncoder` keeps one of them, with the first key's bytes: the tree's way.
                    spoil()
                } else if !frame.inOrder {
                    sortMembers(of: frame)
                }
                members.removeSubrange(frame.firstMember...)
                out.append(UInt8(ascii: "}"))
            } else {
                out.append(UInt8(ascii: "]"))
            }
        }
    }

    /// The order of two members' keys by their UTF-8 bytes, as `JSONEncoder`'s
    /// `.sortedKeys` orders them: negative, zero (the same key) or positive. Keys that are
    /// equal as `String`s but not in their bytes spoil the pass before they are sorted.
    private func compareKeys(_ left: Member, _ right: Member) -> Int {
        if left.key == nil && right.key == nil {
            // Both keys are plain ASCII: their bytes between their quotes are the keys.
            return out.withBytes(in: (left.start + 1)..<(left.keyEnd - 1)) { leftKey in
                out.withBytes(in: (right.start + 1)..<(right.keyEnd - 1)) { rightKey in
                    for (leftByte, rightByte) in zip(leftKey, rightKey) where leftByte != rightByte {
                        return leftByte < rightByte ? -1 : 1
                    }
                    return leftKey.count - rightKey.count
                }
            }
        }
        let leftKey = left.key ?? key(of: left)
        let rightKey = right.key ?? key(of: right)
        if leftKey == rightKey { return 0 }
        return leftKey.utf8.lexicographicallyPrecedes(rightKey.utf8) ? -1 : 1
    }

    /// Whether two of the keys of `frame` are equal as `String`s (canonically equivalent)
    /// but not in their bytes ("é" written as one scalar and as two).
    private func hasKeysEqualOnlyAsStrings(_ frame: Frame) -> Bool {
        let keys = members[frame.firstMember...].map { $0.key ?? key(of: $0) }
        return Set(keys).count != Set(keys.map { Array($0.utf8) }).count
    }

    /// The key of a member whose key is plain ASCII.
    private func key(of member: Member) -> String {
        out.withBytes(in: (member.start + 1)..<(member.keyEnd - 1)) { String(decoding: $0, as: UTF8.self) }
    }

    /// Puts the members of `frame` in key order, keeping a repeated key's last value.
    private func sortMembers(of frame: Frame) {
        let first = frame.firstMember
        // Each member's bytes run to the comma before the next one, or to the end.
        var spans: [(member: Member, order: Int, range: Range<Int>)] = []
        for index in first..<members.count {
            let end = index + 1 < members.count ? members[index + 1].start - 1 : out.count
            spans.append((members[index], index, members[index].start..<end))
        }
        spans.sort { left, right in
            let order = compareKeys(left.member, right.member)
            return order == 0 ? left.order < right.order : order < 0
        }
        let offset = frame.start + 1
        let region = out.withBytes(in: offset..<out.count) { Array($0) }
        var kept: [Range<Int>] = []
        for (index, span) in spans.enumerated() {
            // Of a repeated key, the last one written wins.
            if index + 1 < spans.count && compareKeys(spans[index + 1].member, span.member) == 0 { continue }
            kept.append(span.range)
        }
        out.truncate(to: offset)
        region.withUnsafeBufferPointer { region in
            for (index, range) in kept.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                let bytes = region[(range.lowerBound - offset)..<(range.upperBound - offset)]
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes))
            }
        }
    }

    /// Writes `value` in decimal.
    func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Writes a floating-point number as `JSONEncoder` does; a non-finite one spoils the
    /// pass (the tree refuses it, naming its path).
    func writeNumber<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) {
        guard value.isFinite else { return spoil() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }
}
