// SPDX-License-Identifier: Apache-2.0
// Numbers are written straight into the output buffer: the render path builds no
// `String` for them except for non-integral doubles.

/// Appends `number` in decimal.
func appendDecimal(_ number: Int, into buffer: inout [UInt8]) {
    if number < 0 { buffer.append(UInt8(ascii: "-")) }
    // Digits come out last first: fill a stack buffer backwards, then copy it once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var magnitude = number.magnitude
        var first = digits.count
        repeat {
            first -= 1
            digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
    }
}

/// Appends `number` as JavaScript would print it for the usual values: integral values
/// without a fraction (`2.0` → `2`), others in their shortest round-tripping form (`1.21`).
func appendNumber(_ number: Double, into buffer: inout [UInt8]) {
    // Below 2^53 every integral double is exactly an Int, so the conversion is lossless.
    if number.rounded(.towardZero) == number, number.magnitude < 9_007_199_254_740_992 {
        appendDecimal(Int(number), into: &buffer)
    } else {
        buffer.append(contentsOf: number.description.utf8)
    }
}

/// Appends a literal known at compile time.
func appendASCII(_ text: StaticString, into buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
}
