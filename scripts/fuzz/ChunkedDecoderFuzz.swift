// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: `ChunkedDecoder`, fed all at once and byte by byte, which must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkedDecoder(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    func run(step: Int) -> (body: [UInt8], consumed: Int, done: Bool)? {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        var offset = 0
        while offset < bytes.count && !decoder.isDone {
            let end = min(bytes.count, offset + step)
            do {
                let used = try decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), into: &body)
                offset += used
                if used < end - offset + used && !decoder.isDone { preconditionFailure("stopped early") }
            } catch {
                return nil
            }
            if body.count > 1 << 20 { return nil }
        }
        return (body, offset, decoder.isDone)
    }
    let whole = run(step: max(1, bytes.count))
    let single = run(step: 1)
    precondition(whole?.body == single?.body && whole?.done == single?.done, "chunk boundaries changed the body")
    precondition(whole?.consumed == single?.consumed, "chunk boundaries changed the length")
    return 0
}
