// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The method and the field names most requests carry, recognised from their bytes: a
/// known one becomes its enum case or a string literal (no allocation, no UTF-8 check),
/// anything else a new string. Building a `String` from a name's bytes is a large share
/// of a cached page's whole path, and a browser sends a dozen names a request.
extension RequestHead {
    /// The method `bytes` spell (a token: the parser checked it).
    static func method(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        switch bytes.count {
        case 3 where spells(bytes, "GET"): .get
        case 4 where spells(bytes, "POST"): .post
        case 4 where spells(bytes, "HEAD"): .head
        default: HTTPMethod(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The field name `bytes` spell: one of the common names' literals when it is one
    /// byte for byte (so the name keeps the client's spelling either way), else a new
    /// string. Chosen by length first, each candidate compared byte by byte.
    static func fieldName(_ bytes: UnsafeRawBufferPointer) -> String {
        switch bytes.count {
        case 4:
            if spells(bytes, "Host") { return "Host" }
            if spells(bytes, "host") { return "host" }
        case 6:
            if spells(bytes, "Cookie") { return "Cookie" }
            if spells(bytes, "Accept") { return "Accept" }
            if spells(bytes, "Origin") { return "Origin" }
            if spells(bytes, "Pragma") { return "Pragma" }
            if spells(bytes, "cookie") { return "cookie" }
            if spells(bytes, "accept") { return "accept" }
            if spells(bytes, "origin") { return "origin" }
        case 7:
            if spells(bytes, "Referer") { return "Referer" }
            if spells(bytes, "referer") { return "referer" }
        case 8:
            if spells(bytes, "Priority") { return "Priority" }
        case 10:
            if spells(bytes, "User-Agent") { return "User-Agent" }
            if spells(bytes, "Connection") { return "Connection" }
            if spells(bytes, "user-agent") { return "user-agent" }
            if spells(bytes, "connection") { return "connection" }
        case 12:
            if spells(bytes, "Content-Type") { return "Content-Type" }
            if spells(bytes, "X-CSRF-Token") { return "X-CSRF-Token" }
            if spells(bytes, "content-type") { return "content-type" }
        case 13:
            if spells(bytes, "Cache-Control") { return "Cache-Control" }
            if spells(bytes, "If-None-Match") { return "If-None-Match" }
            if spells(bytes, "cache-control") { return "cache-control" }
        case 14:
            if spells(bytes, "Content-Length") { return "Content-Length" }
            if spells(bytes, "Sec-Fetch-Site") { return "Sec-Fetch-Site" }
            if spells(bytes, "Sec-Fetch-Mode") { return "Sec-Fetch-Mode" }
            if spells(bytes, "Sec-Fetch-Dest") { return "Sec-Fetch-Dest" }
            if spells(bytes, "Sec-Fetch-User") { return "Sec-Fetch-User" }
            if spells(bytes, "content-length") { return "content-length" }
        case 15:
            if spells(bytes, "Accept-Language") { return "Accept-Language" }
            if spells(bytes, "Accept-Encoding") { return "Accept-Encoding" }
            if spells(bytes, "X-Forwarded-For") { return "X-Forwarded-For" }
            if spells(bytes, "accept-language") { return "accept-language" }
            if spells(bytes, "accept-encoding") { return "accept-encoding" }
            if spells(bytes, "x-forwarded-for") { return "x-forwarded-for" }
        case 16:
            if spells(bytes, "X-Requested-With") { return "X-Requested-With" }
        case 17:
            if spells(bytes, "If-Modified-Since") { return "If-Modified-Since" }
            if spells(bytes, "X-Forwarded-Proto") { return "X-Forwarded-Proto" }
            if spells(bytes, "x-forwarded-proto") { return "x-forwarded-proto" }
        case 25:
            if spells(bytes, "Upgrade-Insecure-Requests") { return "Upgrade-Insecure-Requests" }
        default: break
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are exactly `text`'s.
    @inline(__always)
    private static func spells(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard text.utf8CodeUnitCount == bytes.count else { return false }
        let expected = text.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }
}
