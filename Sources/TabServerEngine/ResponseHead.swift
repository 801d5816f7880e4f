// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Writes the status line and header section of a response. The engine owns framing:
/// it always writes an exact `Content-Length` (none for 1xx, 204 and 304), its own
/// `Date` and `Connection`, and drops any such field the responder set. A field whose
/// name is not a token or whose value holds CR, LF or NUL is dropped (and logged), so no
/// responder can split a response.
enum ResponseHead {
    /// Fields only the engine writes.
    private static let engineFields = ["content-length", "transfer-encoding", "connection", "date", "keep-alive"]

    /// Whether a response with this status carries a body (and so a `Content-Length`).
    static func hasBody(_ status: HTTPStatus) -> Bool {
        !(status.code < 200 || status.code == 204 || status.code == 304)
    }

    /// Status line, the responder's valid fields and `Content-Length`: everything but
    /// `Date`, `Connection` and the blank line, which change per request.
    static func stable(_ response: HTTPResponse, log: LogSink?) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(1024)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(32)
        out.append(contentsOf: response.status.reason.utf8.filter { $0 >= 0x20 && $0 != 0x7f })
        out.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            if engineFields.contains(where: { HTTPHeaders.namesEqual($0, field.name) }) { continue }
            guard append(field, to: &out) else {
                log?.write("tabserver: dropped invalid response header \(field.name.debugDescription)", level: .warn)
                continue
            }
        }
        if case .stream = response.body {
            // No length: the response ends when the stream does, with the connection.
        } else if hasBody(response.status) {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        return out
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

    /// Appends `name: value` and CRLF when the name is a token and the value holds no CR,
    /// LF or NUL; else appends nothing and returns false. Works on the strings' bytes in
    /// place: this runs for every field of every response not prepared once.
    private static func append(_ field: HTTPHeaders.Field, to out: inout [UInt8]) -> Bool {
        var name = field.name
        var value = field.value
        return name.withUTF8 { name in
            guard !name.isEmpty, name.allSatisfy({ tokenBytes[Int($0)] }) else { return false }
            return value.withUTF8 { value in
                guard !value.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { return false }
                out.append(contentsOf: name)
                out.append(58)
                out.append(32)
                out.append(contentsOf: value)
                out.append(13)
                out.append(10)
                return true
            }
        }
    }

    /// Which bytes may appear in a field name (RFC 9110 `tchar`).
    private static let tokenBytes: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
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
}

/// Appends `value` in decimal.
func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &out) }
    out.append(UInt8(ascii: "0") + UInt8(value % 10))
}
