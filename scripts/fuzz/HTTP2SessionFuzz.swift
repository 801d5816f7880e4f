// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: `HTTP2Session` (nghttp2 and our callbacks) fed the client preface,
/// then the input as frames, in pieces; every request is answered with a small body and
/// every event is checked against the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Session(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    final class Body: HTTP2BodySource {
        var left = 3
        func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
            let count = min(left, buffer.count)
            for index in 0..<count { buffer[index] = 0x61 }
            left -= count
            return .bytes(count, last: left == 0)
        }
    }
    let limits = HTTP2Limits(maximumHeaderListSize: 2048, maximumHeaderFields: 20, maximumBodySize: 512)
    guard let session = HTTP2Session(limits: limits) else { return 0 }
    let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    var input = preface + Array(UnsafeBufferPointer(start: start, count: count))
    var output: [UInt8] = []
    // Pieces of 1, 7 and 61 bytes in turn: frames split anywhere.
    var step = 0
    while !input.isEmpty {
        let piece = [1, 7, 61][step % 3]
        step += 1
        let taken = Array(input.prefix(piece))
        input.removeFirst(taken.count)
        let failure = taken.withUnsafeBytes { session.receive($0) }
        for event in session.takeEvents() {
            switch event {
            case .request(let request):
                precondition(request.body.count <= limits.maximumBodySize, "a body past the limit")
                precondition(request.headers.count <= limits.maximumHeaderFields, "more fields than allowed")
                session.respond(to: request.streamID, status: 200, headers: [("x", "y")], body: Body())
            case .refused(let id, _):
                session.respond(to: id, status: 431, headers: [], body: nil)
            case .opened, .closed:
                break
            }
        }
        output.removeAll(keepingCapacity: true)
        _ = session.send(into: &output, limit: 1 << 16)
        if failure != nil { break }
    }
    return 0
}
