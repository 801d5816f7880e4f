// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: `FormBody` (urlencoded and multipart); the first byte picks the type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormBody(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let body = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    let types = [
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=XyZ",
        "multipart/form-data; boundary=\"a b\"",
        "multipart/form-data; boundary=", "multipart/form-data", "text/plain",
    ]
    _ = try? FormBody.fields(contentType: types[Int(start[0]) % types.count], body: body)
    return 0
}
