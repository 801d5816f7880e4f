// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine

/// The text access-log line: what came from the client escaped byte for byte, numbers in
/// decimal.
@Suite("Access log lines")
struct AccessLogLineTests {
    /// The escape of one byte, as the line's format defines it.
    private static func escaped(_ byte: UInt8) -> [UInt8] {
        guard byte < 0x20 || byte >= 0x7f || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
            return [byte]
        }
        let digits = Array("0123456789abcdef".utf8)
        return [UInt8(ascii: "\\"), UInt8(ascii: "x"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
    }

    private static func line(target: String) -> [UInt8] {
        AccessLogLine(
            address: "127.0.0.1", method: "GET", target: target, status: 200, bytesSent: 1234,
            durationNanos: 2_345_678, aborted: false, note: nil
        ).bytes
    }

    @Test("every byte that needs it is escaped, at every place in a target, the runs between copied as they are")
    func escapesEveryByte() throws {
        let plain = Array("/tabs/music?x=1".utf8)
        // Every ASCII byte, and non-ASCII ones as the UTF-8 of "é" and "🙂" bring them.
        let probes: [[UInt8]] = (0..<0x80).map { [UInt8($0)] } + [Array("é".utf8), Array("🙂".utf8)]
        var checked = 0
        for position in 0...plain.count {
            for probe in probes {
                let bytes = Array(plain[..<position]) + probe + Array(plain[position...])
                let target = try #require(String(validating: bytes, as: UTF8.self))
                let expected =
                    Array("127.0.0.1 GET ".utf8) + bytes.flatMap(Self.escaped) + Array(" 200 1234B 2.345ms".utf8)
                #expect(Self.line(target: target) == expected, "\(bytes)")
                checked += 1
            }
        }
        #expect(checked == 16 * 130)
    }

    @Test("numbers are written in decimal, from 0 to Int.max, negative ones with their sign")
    func decimals() {
        var values = [
            0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, 1_000_000, Int.max, -1, -10, Int.min + 1, Int.min,
            999_999_999_999_999, 1_000_000_000_000_000, 10_000_000_000_000_000, 10_000_000_000_000_005,
        ]
        values += (0..<200).map { $0 * 7_919 }
        for value in values {
            var out: [UInt8] = [UInt8(ascii: "<")]
            appendDecimal(value, to: &out)
            #expect(out == Array("<\(value)".utf8))
        }
    }

    @Test("a line's status, size and duration: no status as -, milliseconds with three decimals, large values whole")
    func numbersInALine() {
        func tail(status: Int, bytes: Int, nanos: UInt64) -> String {
            let line = AccessLogLine(
                address: "a", method: "GET", target: "/", status: status, bytesSent: bytes, durationNanos: nanos,
                aborted: false, note: nil)
            return String(decoding: line.bytes.dropFirst("a GET / ".utf8.count), as: UTF8.self)
        }
        #expect(tail(status: 0, bytes: 0, nanos: 0) == "- 0B 0.000ms")
        #expect(tail(status: 200, bytes: 9, nanos: 1_000) == "200 9B 0.001ms")
        #expect(tail(status: 304, bytes: 10, nanos: 45_000) == "304 10B 0.045ms")
        #expect(tail(status: 503, bytes: 52_113, nanos: 123_456_789) == "503 52113B 123.456ms")
        #expect(
            tail(status: 200, bytes: .max, nanos: .max)
                == "200 \(Int.max)B \(UInt64.max / 1_000_000).\(UInt64.max / 1000 % 1000)ms")
    }
}
