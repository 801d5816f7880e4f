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
        out.reserveCapacity(256)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(32)
        out.append(contentsOf: response.status.reason.utf8.filter { $0 >= 0x20 && $0 != 0x7f })
        out.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            guard isToken(field.name), field.value.utf8.allSatisfy({ $0 != 13 && $0 != 10 && $0 != 0 }) else {
                log?.write("tabserver: dropped invalid response header \(field.name.debugDescription)", level: .warn)
                continue
            }
            if engineFields.contains(where: { HTTPHeaders.namesEqual($0, field.name) }) { continue }
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
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

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
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
