// SPDX-License-Identifier: Apache-2.0

/// libFuzzer target: request heads (picohttpparser and `RequestHead`'s checks), parsed in
/// one go and resumed after a split, which must agree on every head they accept.
nonisolated(unsafe) let fields = HeadFields()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let whole = RequestHead.parse(bytes, previousLength: 0, maximumLength: 4096, fields: fields)
    if case .complete(let head, _) = whole {
        precondition(head.path.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7f }, "a control byte reached the path")
        precondition(!head.target.isEmpty, "an empty target")
    }
    let split = count > 0 ? Int(bytes[0]) % (count + 1) : 0
    // The engine resumes only after a prefix was incomplete (as `Connection.scanned`).
    let prefix = RequestHead.parse(
        UnsafeRawBufferPointer(rebasing: bytes[0..<split]), previousLength: 0, maximumLength: 4096, fields: fields)
    guard case .incomplete = prefix else { return 0 }
    let resumed = RequestHead.parse(bytes, previousLength: split, maximumLength: 4096, fields: fields)
    switch (whole, resumed) {
    case (.complete(let a, let lengthA), .complete(let b, let lengthB)):
        precondition(lengthA == lengthB && a.target == b.target && a.framing == b.framing, "resume changed the head")
    case (.complete, _), (_, .complete): preconditionFailure("resume changed whether the head is complete")
    default:
        // picohttpparser resuming (last_len > 0) first waits for the blank line, so a
        // malformed partial head may be "incomplete" for it and "rejected" in one go;
        // either way it is never served.
        break
    }
    return 0
}
