// SPDX-License-Identifier: Apache-2.0

/// Where JSON bytes are written: an array for the tree, `JSONOutput` for the fast path.
protocol JSONByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(contentsOf text: String.UTF8View)
}

extension [UInt8]: JSONByteSink {}
