// SPDX-License-Identifier: Apache-2.0
/// One malformed, ambiguous or hostile request and what the engine must answer. Every
/// case is followed on the same connection by a pipelined `GET /smuggled-nNz`, which
/// must never run: the engine answers once and closes.
struct HostileCase: Sendable, CustomStringConvertible {
    let name: String
    let request: [UInt8]
    /// The engine's status for it.
    let status: Int
    /// Whether nginx in front may forward it to the engine (false for what nginx cannot
    /// answer within the test's time, e.g. a request it would wait on).
    var viaProxy = true

    var description: String { name }

    /// The same case, not sent through nginx (which would wait for a body it announces).
    var direct: HostileCase {
        var copy = self
        copy.viaProxy = false
        return copy
    }

    /// The tag of case number `index` in the paths the app sees (unique: `n1z`, `n12z`).
    static func tag(_ index: Int) -> String { "n\(index)z" }

    /// The bytes to send for case number `index`: `{N}` in the request becomes its tag,
    /// then the pipelined request follows.
    func bytes(index: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var position = 0
        let marker = Array("{N}".utf8)
        while position < request.count {
            if position + 3 <= request.count && Array(request[position..<(position + 3)]) == marker {
                bytes += Array(Self.tag(index).utf8)
                position += 3
            } else {
                bytes.append(request[position])
                position += 1
            }
        }
        return bytes + Array("GET /smuggled-\(Self.tag(index)) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
    }
}

/// The corpus: at least 100 requests that a strict HTTP/1.1 server must refuse (or, for
/// the few marked 200, accept as the one request they are, with `Connection: close`).
enum HostileCorpus {
    private static let form = "Content-Type: application/x-www-form-urlencoded\r\n"

    private static func text(_ name: String, _ request: String, _ status: Int, viaProxy: Bool = true) -> HostileCase {
        HostileCase(name: name, request: Array(request.utf8), status: status, viaProxy: viaProxy)
    }

    private static func bytes(_ name: String, _ request: [UInt8], _ status: Int) -> HostileCase {
        HostileCase(name: name, request: request, status: status)
    }

    /// A GET whose target is `target`.
    private static func get(_ name: String, _ target: String, _ status: Int) -> HostileCase {
        text(name, "GET \(target) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", status)
    }

    /// A chunked form post with `body` as its (raw) chunked body.
    private static func chunked(_ name: String, _ body: String, _ status: Int) -> HostileCase {
        text(
            name,
            "POST /ok-{N} HTTP/1.1\r\nHost: t\r\n\(form)Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(body)",
            status)
    }

    /// A form post with `fields` as extra header lines and `body` after the head.
    private static func post(_ name: String, _ fields: String, _ status: Int) -> HostileCase {
        post(name, fields, "a=b", status)
    }

    private static func post(_ name: String, _ fields: String, _ body: String, _ status: Int) -> HostileCase {
        text(name, "POST /ok-{N} HTTP/1.1\r\nHost: t\r\n\(form)\(fields)Connection: close\r\n\r\n\(body)", status)
    }

    static let cases: [HostileCase] =
        whitespaceAndFolding + hosts + absoluteForm + framing + contentLength + transferCoding + chunks + targets
        + headerBytes + requestLines + limits + bodies

    static let whitespaceAndFolding: [HostileCase] = [
        text("space before colon in Host", "GET /ok-{N} HTTP/1.1\r\nHost : t\r\n\r\n", 400),
        post("space before colon in Content-Length", "Content-Length : 3\r\n", 400),
        post(
            "space before colon in Transfer-Encoding", "Transfer-Encoding : chunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 400),
        text("tab before colon", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nX-A\t: b\r\n\r\n", 400),
        text("whitespace before the first field", "GET /ok-{N} HTTP/1.1\r\n Host: t\r\n\r\n", 400),
        text("obs-fold with space", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nX-A: b\r\n c\r\n\r\n", 400),
        text("obs-fold with tab", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nX-A: b\r\n\tc\r\n\r\n", 400),
        text("folded Host", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\n  x\r\n\r\n", 400),
        post("folded Content-Length", "Content-Length: 3\r\n 0\r\n", 400),
        text("field without colon", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nNoColon\r\n\r\n", 400),
        text("empty field name", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\n: x\r\n\r\n", 400),
        text(
            "vertical tab before colon", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nTransfer-Encoding\u{0B}: chunked\r\n\r\n",
            400),
    ]

    static let hosts: [HostileCase] = [
        text("duplicate Host, same value", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nHost: t\r\n\r\n", 400),
        text("duplicate Host, different values", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nHost: evil\r\n\r\n", 400),
        text("Host list", "GET /ok-{N} HTTP/1.1\r\nHost: t, evil\r\n\r\n", 400),
        text("no Host on HTTP/1.1", "GET /ok-{N} HTTP/1.1\r\n\r\n", 400),
        text("Host with userinfo", "GET /ok-{N} HTTP/1.1\r\nHost: u@t\r\n\r\n", 400),
        text("Host with a path", "GET /ok-{N} HTTP/1.1\r\nHost: t/x\r\n\r\n", 400),
        text("Host with a space", "GET /ok-{N} HTTP/1.1\r\nHost: t x\r\n\r\n", 400),
        text("host case-folded", "GET /ok-{N} HTTP/1.1\r\nhOsT: t\r\nConnection: close\r\n\r\n", 200),
    ]

    static let absoluteForm: [HostileCase] = [
        text(
            "absolute-form, matching Host", "GET http://t/ok-{N} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 200),
        text(
            "absolute-form, Host case differs", "GET http://T/ok-{N} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            200),
        text("absolute-form https", "GET https://t/ok-{N} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 200),
        text(
            "absolute-form with port", "GET http://t:80/ok-{N} HTTP/1.1\r\nHost: t:80\r\nConnection: close\r\n\r\n", 200
        ),
        text("absolute-form on HTTP/1.0 without Host", "GET http://t/ok-{N} HTTP/1.0\r\n\r\n", 200),
        text("absolute-form, mismatching Host", "GET http://evil/ok-{N} HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("absolute-form, port differs from Host", "GET http://t:81/ok-{N} HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("absolute-form with userinfo", "GET http://u@t/ok-{N} HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("absolute-form with userinfo on HTTP/1.0", "GET http://u@t/ok-{N} HTTP/1.0\r\n\r\n", 400),
        text("absolute-form, empty authority", "GET http:///ok-{N} HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("absolute-form, other scheme", "GET ftp://t/ok-{N} HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("authority-form on GET", "GET t:80 HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("asterisk-form on GET", "GET * HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ]

    static let framing: [HostileCase] = [
        post("Content-Length then Transfer-Encoding", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", 400),
        post(
            "Transfer-Encoding then Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n",
            "3\r\na=b\r\n0\r\n\r\n", 400),
        post("Content-Length 0 with chunked", "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n", 400),
        post("duplicate Content-Length, same", "Content-Length: 3\r\nContent-Length: 3\r\n", 400),
        post("duplicate Content-Length, different", "Content-Length: 3\r\nContent-Length: 5\r\n", "a=bcd", 400),
        post("Content-Length list", "Content-Length: 3, 3\r\n", 400),
        text(
            "GET with a body hiding a request",
            "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nContent-Length: 57\r\n\r\n", 400),
        text("HEAD with a body", "HEAD /ok-{N} HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\na=b", 400),
        text(
            "GET with a chunked body", "GET /ok-{N} HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400),
    ]

    static let contentLength: [HostileCase] = [
        post("Content-Length with plus", "Content-Length: +3\r\n", 400),
        post("Content-Length negative", "Content-Length: -3\r\n", 400),
        post("Content-Length hex", "Content-Length: 0x3\r\n", 400),
        post("Content-Length with inner space", "Content-Length: 1 3\r\n", 400),
        post("Content-Length with letters", "Content-Length: 3a\r\n", 400),
        post("Content-Length decimal point", "Content-Length: 3.0\r\n", 400),
        post("Content-Length empty", "Content-Length: \r\n", 400),
        post("Content-Length 20 digits", "Content-Length: 99999999999999999999\r\n", 400),
        post("Content-Length overflowing Int64", "Content-Length: 9223372036854775808\r\n", 400),
        post("Content-Length huge but valid", "Content-Length: 1000000000000\r\n", 413),
        post("Content-Length over the limit", "Content-Length: 2000\r\n", 413).direct,
        post("Content-Length with padding spaces", "Content-Length:   3  \r\n", 200),
        post("Content-Length after a tab", "Content-Length:\t3\r\n", 200),
        post("Content-Length leading zeros", "Content-Length: 0003\r\n", 200),
        bytes(
            "Content-Length with a non-ASCII digit",
            Array("POST /ok-{N} HTTP/1.1\r\nHost: t\r\n\(form)Content-Length: ".utf8) + [0xD9, 0xA3]
                + Array("\r\nConnection: close\r\n\r\na=b".utf8), 400),
    ]

    static let transferCoding: [HostileCase] = [
        post("TE identity", "Transfer-Encoding: identity\r\n", 501),
        post("TE chunked, identity", "Transfer-Encoding: chunked, identity\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        post("TE identity, chunked", "Transfer-Encoding: identity, chunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        post("TE xchunked", "Transfer-Encoding: xchunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        post("TE chunkedx", "Transfer-Encoding: chunkedx\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        post("TE quoted", "Transfer-Encoding: \"chunked\"\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        post(
            "two TE headers", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "3\r\na=b\r\n0\r\n\r\n",
            501),
        post(
            "TE chunked then TE x", "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n", "3\r\na=b\r\n0\r\n\r\n",
            501),
        post("TE gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 501),
        text(
            "TE chunked on HTTP/1.0",
            "POST /ok-{N} HTTP/1.0\r\n\(form)Transfer-Encoding: chunked\r\n\r\n3\r\na=b\r\n0\r\n\r\n", 501),
        post("TE Chunked, any case", "Transfer-Encoding: Chunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 200),
        post("TE after a tab", "Transfer-Encoding:\tchunked\r\n", "3\r\na=b\r\n0\r\n\r\n", 200),
    ]

    static let chunks: [HostileCase] = [
        chunked("chunk size not hex", "g\r\na=b\r\n0\r\n\r\n", 400),
        chunked("chunk size negative", "-3\r\na=b\r\n0\r\n\r\n", 400),
        chunked("chunk size 0x", "0x3\r\na=b\r\n0\r\n\r\n", 400),
        chunked("chunk size then junk", "3 junk\r\na=b\r\n0\r\n\r\n", 400),
        chunked("chunk size with leading space", " 3\r\na=b\r\n0\r\n\r\n", 400),
        chunked("chunk size of 17 digits", "00000000000000003\r\na=b\r\n0\r\n\r\n", 400),
        chunked("empty chunk size line", "\r\na=b\r\n0\r\n\r\n", 400),
        chunked("bare LF after chunk size", "3\na=b\r\n0\r\n\r\n", 400),
        chunked("bare CR after chunk size", "3\ra=b\r\n0\r\n\r\n", 400),
        chunked("missing CRLF after data", "3\r\na=bX\r\n0\r\n\r\n", 400),
        chunked("bare LF after data", "3\r\na=b\n0\r\n\r\n", 400),
        chunked("control byte in extension", "3;\u{1}\r\na=b\r\n0\r\n\r\n", 400),
        chunked("bare LF in extension", "3;x\na=b\r\n0\r\n\r\n", 400),
        chunked("DEL in extension", "3;\u{7F}\r\na=b\r\n0\r\n\r\n", 400),
        chunked("over-long extension", "3;" + String(repeating: "x", count: 2000) + "\r\na=b\r\n0\r\n\r\n", 400),
        chunked("bare LF ending the trailers", "3\r\na=b\r\n0\r\n\n", 400),
        chunked("trailer line ending in bare LF", "3\r\na=b\r\n0\r\nX-T: 1\n\r\n", 400),
        chunked("trailer with obs-fold", "3\r\na=b\r\n0\r\n x\r\n\r\n", 400),
        chunked("NUL in a trailer", "3\r\na=b\r\n0\r\nX-T: \u{0}\r\n\r\n", 400),
        chunked(
            "chunks over the limit", "3ff\r\n" + String(repeating: "a", count: 1023) + "\r\n2\r\nbb\r\n0\r\n\r\n", 413),
        chunked("huge chunk size", "fffffffffffffff\r\n" + String(repeating: "a", count: 1100), 413).direct,
        chunked("chunk extension", "3;name=value\r\na=b\r\n0\r\n\r\n", 200),
        chunked("chunk size with whitespace before extension", "3 ;x\r\na=b\r\n0\r\n\r\n", 200),
        chunked("trailer field", "3\r\na=b\r\n0\r\nX-T: 1\r\n\r\n", 200),
    ]

    static let targets: [HostileCase] = [
        bytes("raw NUL in path", Array("GET /a".utf8) + [0] + Array("b HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw NUL in query", Array("GET /a?x=".utf8) + [0] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw DEL in path", Array("GET /a".utf8) + [0x7F] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw 0x01 in query", Array("GET /a?x=".utf8) + [1] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw ESC in path", Array("GET /a".utf8) + [0x1B] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw tab in path", Array("GET /a\tb HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw 0xFF in path", Array("GET /a".utf8) + [0xFF] + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        bytes("raw UTF-8 in path", Array("GET /café HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 400),
        get("%00 in path", "/a%00b", 400),
        get("%00 in query", "/a?x=%00", 400),
        get("%00 in query name", "/a?%00=1", 400),
        get("%0a in path", "/healthz%0a10.6.6.6", 400),
        get("%0d%0a in query", "/a?x=%0d%0aSet-Cookie:%20x=1", 400),
        get("%7f in path", "/a%7fb", 400),
        get("%1b in query", "/a?x=%1b[31m", 400),
        get("%09 in path", "/a%09b", 400),
        get("%00 after a file name", "/css/app.css%00.txt", 400),
        get("lone % at the end", "/a%", 400),
        get("% with one digit", "/a%4", 400),
        get("% with non-hex digits", "/a%zz", 400),
        get("% with one non-hex digit", "/a?x=%g1", 400),
        get("double %", "/a%%41", 400),
        get("% before =", "/a?%=1", 400),
        get("encoded slash decodes, and is only a path", "/ok-{N}%2F..%2F..%2Fetc", 200),
        get("over-long target", "/" + String(repeating: "a", count: 9000), 414),
    ]

    static let headerBytes: [HostileCase] = [
        bytes(
            "NUL in a field value", Array("GET /a HTTP/1.1\r\nHost: t\r\nX-A: a".utf8) + [0] + Array("b\r\n\r\n".utf8),
            400),
        bytes(
            "0x01 in a field value", Array("GET /a HTTP/1.1\r\nHost: t\r\nX-A: a".utf8) + [1] + Array("\r\n\r\n".utf8),
            400),
        bytes(
            "NUL in a field name", Array("GET /a HTTP/1.1\r\nHost: t\r\nX-".utf8) + [0] + Array("A: b\r\n\r\n".utf8),
            400),
        bytes(
            "DEL in a field value",
            Array("GET /a HTTP/1.1\r\nHost: t\r\nX-A: a".utf8) + [0x7F] + Array("\r\n\r\n".utf8), 400),
        text("bare CR in a field value", "GET /a HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n", 400),
        text("bare CR ending a field line", "GET /a HTTP/1.1\r\nHost: t\r\r\n\r\n", 400),
        text("bare CR inside a field name", "GET /a HTTP/1.1\r\nHost: t\r\nX-\rA: b\r\n\r\n", 400),
        text("bare CR ending the head", "GET /a HTTP/1.1\r\nHost: t\r\n\r", 400, viaProxy: false),
        text("bare CR in the request line", "GET /a\rHTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("bare CR between lines", "GET /a HTTP/1.1\rHost: t\r\n\r\n", 400),
        text("field name with parenthesis", "GET /a HTTP/1.1\r\nHost: t\r\nX(A): b\r\n\r\n", 400),
        text("field name with slash", "GET /a HTTP/1.1\r\nHost: t\r\nX/A: b\r\n\r\n", 400),
    ]

    static let requestLines: [HostileCase] = [
        text("garbage line", "GARBAGE\r\n\r\n", 400),
        text("method only", "GET\r\n\r\n", 400),
        text("no version", "GET /a \r\nHost: t\r\n\r\n", 400).direct,
        // nginx speaks HTTP/0.9 itself (it forwards as 1.0 and answers a bare body).
        text("HTTP/0.9 request", "GET /a\r\n\r\n", 400).direct,
        text("extra token after version", "GET /a HTTP/1.1 x\r\nHost: t\r\n\r\n", 400),
        text("double space", "GET  /a HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("leading space", " GET /a HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("space in target", "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("method with parenthesis", "GE(T /a HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        text("lowercase protocol", "GET /a http/1.1\r\nHost: t\r\n\r\n", 400),
        text("HTTP/2.0", "GET /a HTTP/2.0\r\nHost: t\r\n\r\n", 400),
        text("HTTP/3.0", "GET /a HTTP/3.0\r\nHost: t\r\n\r\n", 400),
        text("HTTP/1.10", "GET /a HTTP/1.10\r\nHost: t\r\n\r\n", 400),
        text("HTTP/01.1", "GET /a HTTP/01.1\r\nHost: t\r\n\r\n", 400),
        text("HTTP/1.", "GET /a HTTP/1.\r\nHost: t\r\n\r\n", 400),
        text("HTTP/1.2 without Host (held to 1.1)", "GET /ok-{N} HTTP/1.2\r\n\r\n", 400),
        text("HTTP/1.2 served as 1.1", "GET /ok-{N} HTTP/1.2\r\nHost: t\r\nConnection: close\r\n\r\n", 200),
        text("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400),
        bytes(
            "TLS ClientHello", [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03, 13, 10, 13, 10], 400),
        text("SSH banner", "SSH-2.0-OpenSSH_9.2\r\n\r\n", 400),
        text(
            "blank lines, then a request", "\r\n\r\nGET /ok-{N} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 200),
        text(
            "unknown method is the app's to answer", "BREW /ok-{N} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            200),
    ]

    static let limits: [HostileCase] = [
        text(
            "too many fields",
            "GET /a HTTP/1.1\r\nHost: t\r\n" + (0..<120).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
        text(
            "one field too big", "GET /a HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 9000))\r\n\r\n",
            431),
        text(
            "fields too big together",
            "GET /a HTTP/1.1\r\nHost: t\r\n"
                + (0..<10).map { "X-\($0): \(String(repeating: "c", count: 1000))\r\n" }
                .joined() + "\r\n", 431),
    ]

    /// Only framing: the engine decodes no body (the web layer's bodies are tested in
    /// WebTests' `RequestBodyTests`, bad ones reaching the app there).
    static let bodies: [HostileCase] = [
        post("Expect: 100-continue over the limit", "Expect: 100-continue\r\nContent-Length: 5000\r\n", "", 413).direct,
        post("Connection: close is obeyed", "Content-Length: 3\r\n", 200),
    ]
}
