// SPDX-License-Identifier: Apache-2.0
// scripts/fuzz.sh compiles this module's files and TabServerJSON's as one module.
#if canImport(TabServerJSON)
    import TabServerJSON
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// One JSON object built directly as UTF-8 bytes, for a log line: no `JSONEncoder`, no
/// intermediate strings, so the access log can use it once per request.
///
/// ```swift
/// var line = JSONLogLine(level: .info)      // {"time":"…","level":"info"
/// line.add("msg", "listening on 127.0.0.1:8080")
/// sink.write(bytes: line.finished)          // …,"msg":"listening on 127.0.0.1:8080"}
/// ```
public struct JSONLogLine: Sendable {
    /// The bytes so far (an unterminated object).
    public private(set) var bytes: [UInt8]

    /// An object starting with the current UTC time (RFC 3339, milliseconds) and `level`.
    public init(level: LogLevel, capacity: Int = 160) {
        self.init(level: level, continuing: [], capacity: capacity)
    }

    /// An object begun at the end of `buffer` (a batch of lines), which the line takes
    /// over; `finishedLine()` hands it back with the object and a newline appended.
    public init(level: LogLevel, continuing buffer: consuming [UInt8], capacity: Int = 160) {
        bytes = consume buffer
        bytes.reserveCapacity(bytes.count + capacity)
        bytes.append(contentsOf: #"{"time":""#.utf8)
        Self.appendTimestamp(to: &bytes)
        bytes.append(contentsOf: #"","level":""#.utf8)
        bytes.append(contentsOf: level.rawValue.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Adds a string field, escaped.
    public mutating func add(_ name: StaticString, _ value: some StringProtocol) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        JSONString.appendEscaped(value.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Adds an integer field.
    public mutating func add(_ name: StaticString, _ value: Int) {
        key(name)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        Self.appendDecimal(value.magnitude, to: &bytes)
    }

    /// Adds a decimal with three fraction digits from a count of thousandths (milliseconds
    /// from microseconds), without floating point.
    public mutating func add(_ name: StaticString, thousandths value: UInt64) {
        key(name)
        Self.appendDecimal(UInt(value / 1000), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        let fraction = value % 1000
        if fraction < 100 { bytes.append(UInt8(ascii: "0")) }
        if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
        Self.appendDecimal(UInt(fraction), to: &bytes)
    }

    /// Adds a boolean field.
    public mutating func add(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// The complete object (the sink adds the newline).
    public var finished: [UInt8] {
        var done = bytes
        done.append(UInt8(ascii: "}"))
        return done
    }

    /// The buffer the line continued, with the complete object and a newline appended;
    /// the line is left empty.
    public mutating func finishedLine() -> [UInt8] {
        var done: [UInt8] = []
        swap(&done, &bytes)
        done.append(UInt8(ascii: "}"))
        done.append(10)
        return done
    }

    private mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static func appendDecimal(_ value: UInt, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    private static func appendPadded(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `2026-11-30T12:34:56.789Z` from the system clock.
    private static func appendTimestamp(to out: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendPadded(Int(parts.tm_year) + 1900, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mon) + 1, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mday), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(Int(parts.tm_hour), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_min), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_sec), width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(Int(now.tv_nsec / 1_000_000), width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }
}
