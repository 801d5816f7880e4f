// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP1

/// The redirect listener's responder: a 308 to the HTTPS origin, or a 400 (and the close)
/// when the request names no usable host.
extension HTTPSRedirect: HeadResponder {
    func answer(toHead head: RequestHead) -> (response: HTTPResponse, close: Bool) {
        answer(host: head.headers["host"], target: head.target)
    }

    /// The same answer to a whole request (the engine asks `answer(toHead:)` instead): its
    /// target is the decoded path and query encoded again.
    func answer(to request: HTTPRequest) async -> ResponderAnswer {
        var target = Self.encoded(request.path, keeping: UInt8(ascii: "/"))
        for (index, pair) in request.query.enumerated() {
            target += (index == 0 ? "?" : "&") + Self.encoded(pair.name) + "=" + Self.encoded(pair.value)
        }
        return ResponderAnswer(answer(host: request.headers["host"], target: target).response)
    }

    private func answer(host: String?, target: String) -> (response: HTTPResponse, close: Bool) {
        guard let location = location(host: host, target: target) else {
            let response = HTTPResponse.text(
                "400 Bad Request: This port redirects to HTTPS and needs a valid Host.\n", status: .badRequest)
            return (response, true)
        }
        var response = HTTPResponse.text("308 Permanent Redirect: \(location)\n", status: .permanentRedirect)
        response.headers.add("Location", location)
        return (response, false)
    }

    /// `text` percent-encoded but for RFC 3986's unreserved characters and `keeping`.
    private static func encoded(_ text: String, keeping kept: UInt8? = nil) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            case kept:
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
