// SPDX-License-Identifier: Apache-2.0

/// Where JSON bytes are written: an array for the tree, `JSONOutput` for the fast path.
protocol JSONByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(contentsOf text: String.UTF8View)
}

extension [UInt8]: JSONByteSink {}

/// The fast path's bytes: a buffer it owns, whose appends only check for room.
///
/// Written by hand because every `Array` append checks that its buffer is not shared, and
/// the tutorial's two-item array took about 40 appends: with the escapes of its strings,
/// they were a quarter of its encoding (callgrind).
struct JSONOutput: ~Copyable, JSONByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(contentsOf text: String.UTF8View) {
        var text = String(text)
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Forgets every byte; a buffer grown past `limit` (a large answer) goes back to
    /// `limit`, so an encoder kept for the next value does not hold on to its room.
    mutating func removeAll(keepingCapacityUpTo limit: Int) {
        count = 0
        guard capacity > limit else { return }
        base.deallocate()
        capacity = max(limit, 16)
        base = .allocate(capacity: capacity)
    }

    /// Forgets the bytes from `newCount` on.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        count = newCount
    }

    /// The bytes in `range`, for reading before the next append.
    func withBytes<Result>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The bytes written, as an array of their own.
    func array() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress { target.initialize(from: base, count: count) }
            initialized = count
        }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
