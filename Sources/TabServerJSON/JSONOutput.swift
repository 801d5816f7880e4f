// SPDX-License-Identifier: Apache-2.0

/// The fast path's bytes: a buffer it owns, whose appends only check for room.
///
/// Written by hand because every `Array` append checks that its buffer is not shared, and
/// even a small answer is dozens of appends (punctuation, strings and their escapes).
struct JSONOutput: ~Copyable, JSONByteSink {
    /// Nil until the first byte (an empty output allocates nothing).
    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    /// Bytes written.
    private(set) var count = 0

    init() {}

    deinit { base?.deallocate() }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base.unsafelyUnwrapped + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(contentsOf text: String.UTF8View) {
        var text = String(text)
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Forgets the bytes from `newCount` on.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        count = newCount
    }

    /// Forgets every byte, keeping the room.
    mutating func removeAll() { count = 0 }

    /// Forgets every byte, and gives back the room past `limit` (a large answer made it
    /// grow): the buffer is then one of `limit` bytes.
    mutating func shrink(to limit: Int) {
        count = 0
        guard capacity > limit, let old = base else { return }
        old.deallocate()
        base = .allocate(capacity: limit)
        capacity = limit
    }

    /// Makes room for `capacity` bytes in all.
    mutating func reserve(_ capacity: Int) {
        if capacity > self.capacity { grow(to: capacity) }
    }

    /// Trades buffers (and what is written in them) with `other`.
    mutating func trade(with other: inout JSONOutput) {
        (base, other.base) = (other.base, base)
        (capacity, other.capacity) = (other.capacity, capacity)
        (count, other.count) = (other.count, count)
    }

    /// The bytes in `range`, for reading before the next append.
    func withBytes<Result>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return body(UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count))
    }

    /// The bytes written, as an array of their own.
    func array() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress, let base { target.initialize(from: base, count: count) }
            initialized = count
        }
    }

    /// Out of line: the rare way of every write, which keeps each write small.
    @inline(never)
    private mutating func grow(to needed: Int) {
        var newCapacity = max(capacity * 2, 256)
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if let base {
            newBase.initialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
