// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Writes the status line and header section of a response. The engine owns framing:
/// it always writes an exact `Content-Length` (none for 1xx, 204 and 304), its own
/// `Date` and `Connection`, and drops any such field the responder set. A field whose
/// name is not a token or whose value holds CR, LF or NUL is dropped (and logged), so no
/// responder can split a response.
enum ResponseHead {
    /// Whether a response with this status carries a body (and so a `Content-Length`).
    static func hasBody(_ status: HTTPStatus) -> Bool {
        !(status.code < 200 || status.code == 204 || status.code == 304)
    }

    /// Status line, the responder's valid fields and `Content-Length`: everything but
    /// `Date`, `Connection` and the blank line, which change per request.
    static func stable(_ response: HTTPResponse, log: LogSink?) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(512)
        appendStable(response, to: &out, log: log)
        return out
    }

    /// Appends what `stable` returns to `out`, for a head written once (no array of its own).
    ///
    /// Every response not prepared once takes this path, and every page entry the first
    /// time it is sent: each field is checked and copied in one pass over its bytes, the
    /// engine's own fields told apart by their length first and then compared as bytes:
    /// case-insensitive compares of `String`s, every field against every engine name,
    /// would cost many times the copying on every head written.
    static func appendStable(_ response: HTTPResponse, to out: inout [UInt8], log: LogSink?) {
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(32)
        var reason = response.status.reason
        reason.withUTF8 { reason in
            for byte in reason where byte >= 0x20 && byte != 0x7f { out.append(byte) }
        }
        out.append(13)
        out.append(10)
        for field in response.headers {
            switch append(field, to: &out) {
            case .appended, .enginesOwn: break
            case .invalid:
                log?.write("dropped invalid response header \(field.name.debugDescription)", level: .warn)
            }
        }
        if case .stream = response.body {
            // No length: the response ends when the stream does, with the connection.
        } else if hasBody(response.status) {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &out)
            out.append(13)
            out.append(10)
        }
    }

    /// The per-request end of a head: `Date`, `Connection` when it says something, and
    /// the blank line.
    static func finish(date: [UInt8], close: Bool, keepAliveForHTTP10: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: date)
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveForHTTP10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
    }

    /// What became of one of the responder's fields.
    private enum FieldOutcome {
        case appended
        /// A field only the engine writes (framing, `Date`, `Connection`): left out.
        case enginesOwn
        /// A name that is not a token, or a value with CR, LF or NUL: left out.
        case invalid
    }

    /// Appends `name: value` and CRLF when the name is a token (and not one of the
    /// engine's fields) and the value holds no CR, LF or NUL; else appends nothing.
    /// Works on the strings' bytes in place.
    private static func append(_ field: HTTPHeaders.Field, to out: inout [UInt8]) -> FieldOutcome {
        var name = field.name
        var value = field.value
        return name.withUTF8 { name in
            guard !name.isEmpty else { return .invalid }
            guard isToken(name) else { return .invalid }
            if isEngineField(name) { return .enginesOwn }
            return value.withUTF8 { value in
                if breaksLine(value) { return .invalid }
                // The line is put together first and appended once: six appends (two of
                // them generic over their source) would each check the array's room and
                // that its buffer is not shared.
                let count = name.count + value.count + 4
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { line in
                    var end = line.baseAddress!
                    end.initialize(from: name.baseAddress!, count: name.count)
                    end += name.count
                    end[0] = 58
                    end[1] = 32
                    end += 2
                    if let bytes = value.baseAddress { end.initialize(from: bytes, count: value.count) }
                    end += value.count
                    end[0] = 13
                    end[1] = 10
                    out.append(contentsOf: UnsafeBufferPointer(line))
                }
                return .appended
            }
        }
    }

    /// Whether every byte of a field name is a `tchar`. Eight bytes at a time: a word of
    /// letters, digits and `-` (every name the library writes) passes with a dozen
    /// operations; any other word is checked byte by byte (`isTokenByte`).
    static func isToken(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        !hasByte(in: name, wordIsPlain: isAlphanumericOrDash) { !isTokenByte($0) }
    }

    /// Whether each of the eight bytes of `word` is an ASCII letter, digit or `-`. The
    /// bytes are under 0x80, so adding a constant to each never carries into the next:
    /// a byte's top bit then says whether it reached the bound.
    @inline(__always)
    private static func isAlphanumericOrDash(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        guard word & tops == 0 else { return false }
        // Letters: folded to lower case (bit 5 set), then 0x61 ... 0x7a.
        let folded = word | 0x20 &* ones
        let letter = (folded &+ 0x1f &* ones) & ~(folded &+ 0x05 &* ones)
        // Digits: 0x30 ... 0x39, unfolded (folding would take 0x10 ... 0x19 there too).
        let digit = (word &+ 0x50 &* ones) & ~(word &+ 0x46 &* ones)
        // Dashes: bytes equal to 0x2d, told exactly (no borrow between bytes).
        let other = word ^ (0x2d &* ones)
        let dash = ~(((other & ~tops) &+ ~tops) | other)
        return (letter | digit | dash) & tops == tops
    }

    /// Whether a field value holds CR, LF or NUL. Eight bytes at a time: a word whose bytes
    /// are all 0x20 or more (visible text, UTF-8) is passed with three operations, and
    /// only a word holding a control byte (a tab, most likely) is looked at byte by byte.
    /// A page head's values add up to hundreds of bytes, every one of them checked here.
    static func breaksLine(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        hasByte(in: value, wordIsPlain: { !hasControlByte($0) }, where: isLineBreakOrNul)
    }

    /// Whether a byte of `bytes` is one `matches` says it looks for, read eight bytes at a
    /// time: a word `wordIsPlain` passes holds none, and only another is looked at byte by
    /// byte. The rest after the last whole word is read as the last eight bytes (some
    /// read twice) when there are eight, else byte by byte.
    @inline(__always)
    private static func hasByte(
        in bytes: UnsafeBufferPointer<UInt8>, wordIsPlain: (UInt64) -> Bool, where matches: (UInt8) -> Bool
    ) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            if !wordIsPlain(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                for offset in index..<index + 8 where matches(start[offset]) { return true }
            }
            index += 8
        }
        if index < count, count >= 8, wordIsPlain(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) {
            return false
        }
        for offset in index..<count where matches(start[offset]) { return true }
        return false
    }

    /// Whether a byte of `word` is under 0x20: such a byte borrows when 0x20 is taken
    /// from it and had its top bit clear, so the word's top bits say whether any byte is
    /// one (a borrow reaches a byte above only from a byte that is one).
    @inline(__always)
    private static func hasControlByte(_ word: UInt64) -> Bool {
        (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0
    }

    @inline(__always)
    private static func isLineBreakOrNul(_ byte: UInt8) -> Bool {
        byte < 0x20 && (byte == 13 || byte == 10 || byte == 0)
    }

    /// Whether `byte` may appear in a field name (RFC 9110 `tchar`: letters, digits and
    /// ``!#$%&'*+-.^_`|~``), from a bit set of the 128 ASCII bytes.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<64: (0x03ff_6cfa_0000_0000 as UInt64) >> UInt64(byte) & 1 == 1
        case 64..<128: (0x57ff_ffff_c7ff_fffe as UInt64) >> UInt64(byte - 64) & 1 == 1
        default: false
        }
    }

    /// Whether a (token) name is one of the fields only the engine writes:
    /// `Content-Length`, `Transfer-Encoding`, `Connection`, `Date`, `Keep-Alive`, in any case.
    static func isEngineField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 4: equalsLowercased(name, "date")
        case 10: equalsLowercased(name, "connection") || equalsLowercased(name, "keep-alive")
        case 14: equalsLowercased(name, "content-length")
        case 17: equalsLowercased(name, "transfer-encoding")
        default: false
        }
    }

    /// Whether token bytes `name` spell `lowercased` (letters, digits and `-`) in any case.
    /// Setting bit 5 folds a letter to lower case and leaves `-` and digits as they are;
    /// no other token byte folds onto one of those.
    private static func equalsLowercased(_ name: UnsafeBufferPointer<UInt8>, _ lowercased: StaticString) -> Bool {
        lowercased.withUTF8Buffer { expected in
            guard expected.count == name.count else { return false }
            for index in 0..<name.count where name[index] | 0x20 != expected[index] { return false }
            return true
        }
    }
}

/// The stable part of a response's head, prepared once for responses marked with a
/// `ResponseCache` (static files) and reused for every request, with the body as a
/// memory file when it is large enough to be worth `sendfile`.
final class PreparedHead: Sendable {
    let bytes: [UInt8]
    let bodyFile: MemoryFile?

    init(_ bytes: [UInt8], bodyFile: MemoryFile? = nil) {
        self.bytes = bytes
        self.bodyFile = bodyFile
    }

    /// The prepared head `entry` holds, if it holds one: its class compared, then a cast
    /// without a runtime check (`as?` from the existential cost a dynamic cast per answer).
    static func of(_ entry: ResponseCache.Entry) -> PreparedHead? {
        let object = entry.object
        guard ObjectIdentifier(type(of: object)) == ObjectIdentifier(PreparedHead.self) else { return nil }
        return unsafeDowncast(object, to: PreparedHead.self)
    }
}

/// Appends `value` in decimal.
func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
        var end = 0
        writeDecimal(value, to: buffer, at: &end)
        // One by one: a few digits cost less so than through `append(contentsOf:)`.
        for byte in buffer[..<end] { out.append(byte) }
    }
}

/// Writes `value` in decimal at `end` in `buffer` (room for 20 bytes there), moving `end`
/// past it: its last 16 digits gathered four bits each in a word, the most significant
/// lowest, and the digits above them (three at most) written first. No division but by the
/// constant 10, which compiles to a multiplication: a length or a status is cheap to write.
func writeDecimal(_ value: Int, to buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
    if value < 0 {
        buffer[end] = UInt8(ascii: "-")
        end += 1
    }
    var rest = value.magnitude
    var digits: UInt64 = 0
    var count = 0
    repeat {
        digits = digits &<< 4 | UInt64(rest % 10)
        rest /= 10
        count += 1
    } while rest > 0 && count < 16
    if rest > 0 { writeDecimal(Int(rest), to: buffer, at: &end) }
    for _ in 0..<count {
        buffer[end] = UInt8(ascii: "0") &+ UInt8(digits & 15)
        digits &>>= 4
        end += 1
    }
}
