// SPDX-License-Identifier: Apache-2.0
/// One access-log line, built as bytes (it is written once per request). Everything that
/// came from the client is escaped: control bytes, `"`, `\` and bytes outside ASCII
/// become `\xHH`, so no request can forge or split a line. Over TLS the duration is
/// followed by the protocol and TLS version (`http/1.1 TLSv1.3`, `h2 TLSv1.3`); plain lines have neither.
struct AccessLogLine {
    private(set) var bytes: [UInt8]

    /// The line, appended to `buffer` (a batch of lines; empty for the line alone) without
    /// its newline.
    init(
        appendingTo buffer: consuming [UInt8] = [], address: String, method: String, target: String, status: Int,
        bytesSent: Int, durationNanos: UInt64, aborted: Bool, note: String?, tlsVersion: String? = nil,
        protocolName: String = "http/1.1"
    ) {
        bytes = consume buffer
        bytes.reserveCapacity(bytes.count + 96 + target.utf8.count)
        bytes.append(contentsOf: address.utf8)
        bytes.append(32)
        appendEscaped(method)
        bytes.append(32)
        appendEscaped(target)
        bytes.append(32)
        appendNumbers(status: status, bytesSent: bytesSent, micros: Int(durationNanos / 1000))
        if let tlsVersion {
            bytes.append(32)
            bytes.append(contentsOf: protocolName.utf8)
            bytes.append(32)
            bytes.append(contentsOf: tlsVersion.utf8)
        }
        if aborted { bytes.append(contentsOf: " aborted".utf8) }
        if let note {
            bytes.append(32)
            appendEscaped(note)
        }
    }

    /// `STATUS BYTESB SECONDS.MILLISms` (status 0: `-`), written into a buffer on the stack
    /// and appended at once: appended byte by byte, the numbers took a fifth of the line.
    private mutating func appendNumbers(status: Int, bytesSent: Int, micros: Int) {
        // Three numbers of at most 20 bytes each, and ten bytes around them.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { buffer in
            var end = 0
            func put(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            if status == 0 { put(UInt8(ascii: "-")) } else { writeDecimal(status, to: buffer, at: &end) }
            put(32)
            writeDecimal(bytesSent, to: buffer, at: &end)
            put(UInt8(ascii: "B"))
            put(32)
            writeDecimal(micros / 1000, to: buffer, at: &end)
            put(UInt8(ascii: "."))
            let fraction = micros % 1000
            if fraction < 100 { put(UInt8(ascii: "0")) }
            if fraction < 10 { put(UInt8(ascii: "0")) }
            writeDecimal(fraction, to: buffer, at: &end)
            put(UInt8(ascii: "m"))
            put(UInt8(ascii: "s"))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// The buffer with the line and a newline appended; the line is left empty.
    mutating func takeLine() -> [UInt8] {
        var done: [UInt8] = []
        swap(&done, &bytes)
        done.append(10)
        return done
    }

    private mutating func appendEscaped(_ text: String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            // Most fields need no escape: one scan, one copy.
            guard utf8.contains(where: Self.needsEscape) else {
                bytes.append(contentsOf: utf8)
                return
            }
            appendEscaped(utf8)
        }
        if appended == nil { appendEscaped(Array(text.utf8)) }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x7f || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `utf8` with its bytes that need it escaped; the runs between copied at once.
    private mutating func appendEscaped<Bytes: RandomAccessCollection<UInt8>>(_ utf8: Bytes) where Bytes.Index == Int {
        let hex: StaticString = "0123456789abcdef"
        var start = utf8.startIndex
        for index in utf8.indices where Self.needsEscape(utf8[index]) {
            bytes.append(contentsOf: utf8[start..<index])
            let byte = utf8[index]
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "x"))
            hex.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 15)])
            }
            start = index + 1
        }
        bytes.append(contentsOf: utf8[start...])
    }
}
