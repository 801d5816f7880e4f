// SPDX-License-Identifier: Apache-2.0
import TabServerGzip
import TabServerHTTP

/// gzip for generated pages: worth it from about a kilobyte up, at a level that costs
/// a page's render or less (level 6 packs a tab page to ~27 % at a fraction of level 9's
/// time). Static files are packed once at load at the highest level instead.
public enum PageCompression {
    /// Bodies smaller than this go out as they are: the gzip header and a round trip's
    /// worth of packets make nothing smaller.
    public static let minimumSize = 1024
    /// The zlib level used for pages.
    public static let level: Int32 = 6

    /// `body` packed, or nil when it is too small to gain or would not shrink by a tenth.
    public static func gzip(_ body: [UInt8]) -> [UInt8]? {
        guard body.count >= minimumSize, let packed = try? Gzip.compress(body, level: level),
            packed.count < body.count * 9 / 10
        else { return nil }
        return packed
    }

    /// `response` with its body gzip'd when `request` accepts gzip and the body is built
    /// bytes of a compressible type worth packing (not already encoded, not shared or
    /// streamed); it then says `Content-Encoding: gzip`. Every such response says
    /// `Vary: Accept-Encoding` whichever body it carries, so no cache hands one encoding
    /// to a client of the other.
    public static func compressing(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard case .bytes(let body) = response.body, body.count >= minimumSize,
            !response.headers.contains("content-encoding"),
            let type = response.headers["content-type"], ContentType.isCompressible(type)
        else { return response }
        var response = response
        if !response.headers.contains("vary") { response.headers.add("Vary", "Accept-Encoding") }
        guard request.acceptsGzip, let packed = gzip(body) else { return response }
        response.headers.add("Content-Encoding", "gzip")
        response.body = .bytes(packed)
        return response
    }
}
