// SPDX-License-Identifier: Apache-2.0
import CPicoHTTPParser
import TabServerHTTP

/// A request head as received and checked against RFC 9112, strictly: picohttpparser
/// refuses malformed lines (whitespace before a colon, control bytes, bad versions), and
/// this type refuses what is well formed but ambiguous or unsafe (duplicate `Host`,
/// `Content-Length` with `Transfer-Encoding`, codings other than a single `chunked`,
/// NUL or control bytes in the target, raw or percent-encoded).
package struct RequestHead {
    package var method: HTTPMethod
    /// The target exactly as sent (for the access log).
    package var target: String
    /// The path, percent-decoded.
    package var path: String
    package var query: [(name: String, value: String)]
    package var headers: HTTPHeaders
    package var version: String
    package var framing: BodyFraming
    package var expectsContinue: Bool
    /// Whether the connection may serve another request after this one.
    package var keepAlive: Bool

    package enum Outcome {
        case incomplete
        case complete(RequestHead, length: Int)
        case rejected(EngineRejection)
    }

    /// Most header fields one request may carry.
    package static let maximumFields = 100

    /// Parses the head at the start of `bytes`. `previousLength` is how many of these
    /// bytes an earlier call already saw (picohttpparser then resumes its scan).
    package static func parse(
        _ bytes: UnsafeRawBufferPointer, previousLength: Int, maximumLength: Int, fields: HeadFields
    ) -> Outcome {
        let fields = fields.pointer
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0 else {
            return .incomplete
        }
        var method: UnsafePointer<CChar>?
        var methodLength = 0
        var path: UnsafePointer<CChar>?
        var pathLength = 0
        var minorVersion: Int32 = -1
        var fieldCount = maximumFields + 1
        let length = phr_parse_request(
            base, bytes.count, &method, &methodLength, &path, &pathLength, &minorVersion, fields, &fieldCount,
            min(previousLength, bytes.count))
        if length == -2 {
            guard bytes.count > maximumLength else { return .incomplete }
            let lineEnded = bytes.prefix(maximumLength).contains(UInt8(ascii: "\n"))
            return .rejected(
                lineEnded
                    ? EngineRejection(status: .requestHeaderFieldsTooLarge, message: "The request head is too large.")
                    : EngineRejection(status: .uriTooLong, message: "The request target is too long."))
        }
        if length < 0 {
            let lines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            if lines > maximumFields + 1 {
                return .rejected(
                    EngineRejection(status: .requestHeaderFieldsTooLarge, message: "Too many header fields."))
            }
            return .rejected(EngineRejection(status: .badRequest, message: "The request head is malformed."))
        }
        guard let method, let path else {
            return .rejected(EngineRejection(status: .badRequest, message: "The request line is malformed."))
        }
        if Int(length) > maximumLength {
            // A target that alone fills the allowance is the URI's fault, not the fields'.
            return .rejected(
                pathLength + methodLength + 12 > maximumLength
                    ? EngineRejection(status: .uriTooLong, message: "The request target is too long.")
                    : EngineRejection(status: .requestHeaderFieldsTooLarge, message: "The request head is too large."))
        }
        // picohttpparser takes any printable bytes up to the space as the method; RFC 9110
        // §9.1 allows only a token (`GE(T` must not reach the app).
        guard methodLength > 0, UnsafeRawBufferPointer(start: method, count: methodLength).allSatisfy(isTokenByte)
        else {
            return .rejected(EngineRejection(status: .badRequest, message: "The request method is not a token."))
        }
        func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
        var headers = HTTPHeaders(capacity: fieldCount)
        for index in 0..<fieldCount {
            let field = fields[index]
            guard let name = field.name else {
                return .rejected(
                    EngineRejection(status: .badRequest, message: "Folded header lines (obs-fold) are not accepted."))
            }
            // Optional whitespace after a value is not part of it (RFC 9110 §5.5);
            // picohttpparser strips only what precedes it.
            var valueLength = field.value_len
            if let value = field.value {
                while valueLength > 0 && (value[valueLength - 1] == 0x20 || value[valueLength - 1] == 0x09) {
                    valueLength -= 1
                }
            }
            headers.add(
                fieldName(UnsafeRawBufferPointer(start: name, count: field.name_len)),
                field.value.map { text($0, valueLength) } ?? "")
        }
        do {
            let head = try RequestHead(
                method: Self.method(UnsafeRawBufferPointer(start: method, count: methodLength)),
                target: UnsafeRawBufferPointer(start: path, count: pathLength),
                minorVersion: Int(minorVersion), headers: headers)
            return .complete(head, length: Int(length))
        } catch {
            var rejection = error
            rejection.method = text(method, methodLength)
            rejection.target = String(decoding: UnsafeRawBufferPointer(start: path, count: pathLength), as: UTF8.self)
            return .rejected(rejection)
        }
    }

    private init(method: HTTPMethod, target raw: UnsafeRawBufferPointer, minorVersion: Int, headers: HTTPHeaders)
        throws(EngineRejection)
    {
        self.method = method
        // A later minor version (HTTP/1.2 … 1.9) is answered as 1.1 and held to 1.1's
        // rules (RFC 9110 §2.5): Host required, chunked allowed, keep-alive by default.
        let minorVersion = min(minorVersion, 1)
        version = minorVersion == 0 ? "HTTP/1.0" : "HTTP/1.1"
        self.headers = headers
        let raw = Array(raw)
        target = String(decoding: raw, as: UTF8.self)

        // The fields framing and routing depend on, in one pass over the head.
        // The first Host and how many (no array for the one every request has).
        var host: String? = nil
        var hostCount = 0
        var lengths: [String] = []
        var codings: [String] = []
        var connections: [String] = []
        var expectation: String? = nil
        headers.forEachField { name, value in
            switch name.utf8.count {
            case 4 where HTTPHeaders.namesEqual(name, "host"):
                if hostCount == 0 { host = value }
                hostCount += 1
            case 6 where HTTPHeaders.namesEqual(name, "expect"):
                if expectation == nil { expectation = value }
            case 10 where HTTPHeaders.namesEqual(name, "connection"): connections.append(value)
            case 14 where HTTPHeaders.namesEqual(name, "content-length"): lengths.append(value)
            case 17 where HTTPHeaders.namesEqual(name, "transfer-encoding"): codings.append(value)
            default: break
            }
        }

        // Host: exactly one on HTTP/1.1, and at most one on 1.0.
        if hostCount > 1 { throw EngineRejection(status: .badRequest, message: "More than one Host header.") }
        if minorVersion == 1 && host == nil {
            throw EngineRejection(status: .badRequest, message: "HTTP/1.1 requests must carry a Host header.")
        }
        if let host, !Self.isPlausibleHost(host) {
            throw EngineRejection(status: .badRequest, message: "The Host header is malformed.")
        }

        // The target: origin-form, or absolute-form whose authority must agree with Host.
        var origin = raw[...]
        if let authority = Self.absoluteFormAuthority(raw) {
            // No userinfo (`http://user@host/`), no empty authority: RFC 9110 §4.2.4.
            guard !authority.host.isEmpty, Self.isPlausibleHost(authority.host) else {
                throw EngineRejection(status: .badRequest, message: "The request target's authority is malformed.")
            }
            if let host, !HTTPHeaders.namesEqual(host, authority.host) {
                throw EngineRejection(status: .badRequest, message: "The Host header differs from the request target.")
            }
            if host == nil { self.headers.add("Host", authority.host) }
            origin = authority.rest
        }
        if origin.first != UInt8(ascii: "/") {
            if method == .options && origin.elementsEqual("*".utf8) {
                origin = []
            } else {
                throw EngineRejection(status: .badRequest, message: "The request target must be a path.")
            }
        }
        let questionMark = origin.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = questionMark.map { origin[..<$0] } ?? origin
        // A target that is all path (no query, not absolute-form) and needs no decoding is
        // its own path: the same string, not a second one built from the same bytes.
        path = try Self.decodePercent(
            pathBytes, plusIsSpace: false, spelling: pathBytes.count == raw.count ? target : nil)
        if path.isEmpty { path = "*" }
        query = []
        if let questionMark {
            // Pairs between `&`s, empty ones skipped, found by index: `split` built an array
            // of slices first (a static file's `?v=` on every request).
            var start = questionMark + 1
            while start < origin.endIndex {
                let end = origin[start...].firstIndex(of: UInt8(ascii: "&")) ?? origin.endIndex
                if end > start {
                    let pair = origin[start..<end]
                    let equals = pair.firstIndex(of: UInt8(ascii: "="))
                    let name = try Self.decodePercent(equals.map { pair[..<$0] } ?? pair, plusIsSpace: true)
                    var value = ""
                    if let equals { value = try Self.decodePercent(pair[(equals + 1)...], plusIsSpace: true) }
                    query.append((name, value))
                }
                start = end + 1
            }
        }

        // Framing: one Content-Length of digits, or a single final chunked coding.
        if !lengths.isEmpty && !codings.isEmpty {
            throw EngineRejection(
                status: .badRequest, message: "Content-Length together with Transfer-Encoding is ambiguous.")
        }
        if lengths.count > 1 {
            throw EngineRejection(status: .badRequest, message: "More than one Content-Length header.")
        }
        if !codings.isEmpty {
            let all = codings.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces() }
            guard minorVersion == 1, all.count == 1, HTTPHeaders.namesEqual(String(all[0]), "chunked") else {
                throw EngineRejection(
                    status: .notImplemented, message: "Only a single chunked transfer coding is supported.")
            }
            framing = .chunked
        } else if let length = lengths.first {
            guard !length.isEmpty, length.utf8.count <= 18, length.utf8.allSatisfy({ $0 &- 48 < 10 }),
                let value = Int(length)
            else {
                throw EngineRejection(status: .badRequest, message: "The Content-Length header is malformed.")
            }
            framing = value > 0 ? .length(value) : .none
        } else {
            framing = .none
        }

        let connection = connections.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingASCIISpaces().lowercased()
        }
        keepAlive = minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        expectsContinue =
            minorVersion == 1 && expectation.map { HTTPHeaders.namesEqual($0, "100-continue") } == true
    }

    /// `host[:port]` of an absolute-form target (`http://host/path`), and what follows it.
    private static func absoluteFormAuthority(_ raw: [UInt8]) -> (host: String, rest: ArraySlice<UInt8>)? {
        // Nearly every request is origin-form: no scheme to look for (the comparison
        // below allocates, which every request would pay for).
        guard let first = raw.first, first | 0x20 == UInt8(ascii: "h") else { return nil }
        let lowered = raw.prefix(8).map { $0 | 0x20 }
        let schemeLength: Int
        if lowered.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else if lowered.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else {
            return nil
        }
        let afterScheme = raw[schemeLength...]
        let end = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? raw.endIndex
        let host = String(decoding: raw[schemeLength..<end], as: UTF8.self)
        var rest = raw[end...]
        if rest.isEmpty || rest.first == UInt8(ascii: "?") {
            // `http://host` and `http://host?q` mean the root.
            rest = [UInt8(ascii: "/")] + rest
        }
        return (host, rest)
    }

    /// Letters, digits and the few characters a host, IPv6 literal or port can hold.
    private static func isPlausibleHost(_ host: String) -> Bool {
        host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
    }

    /// Percent-decodes a target component, refusing malformed escapes, bytes outside
    /// printable ASCII, and control characters (NUL included) once decoded.
    /// `spelling`, when given, is a string of exactly `bytes`: returned as it is when there
    /// is nothing to decode.
    package static func decodePercent(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool, spelling: String? = nil)
        throws(EngineRejection) -> String
    {
        // Most targets have nothing to decode: checked first, they become the string at once.
        let plain = bytes.allSatisfy { byte in
            byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: "%") && !(plusIsSpace && byte == UInt8(ascii: "+"))
        }
        if plain {
            return spelling ?? String(decoding: bytes, as: UTF8.self)
        }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var byte = bytes[index]
            guard byte > 0x20 && byte < 0x7f else {
                throw EngineRejection(status: .badRequest, message: "The request target contains a control character.")
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = URLEncoding.hexValue(bytes[index + 1]),
                    let low = URLEncoding.hexValue(bytes[index + 2])
                else {
                    throw EngineRejection(status: .badRequest, message: "The request target has a malformed % escape.")
                }
                byte = high << 4 | low
                if byte < 0x20 || byte == 0x7f {
                    throw EngineRejection(
                        status: .badRequest, message: "The request target encodes a control character.")
                }
                index += 3
            } else {
                if plusIsSpace && byte == UInt8(ascii: "+") { byte = UInt8(ascii: " ") }
                index += 1
            }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

}

/// Whether `byte` may appear in a token (RFC 9110 §5.6.2): a method or a field name.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
