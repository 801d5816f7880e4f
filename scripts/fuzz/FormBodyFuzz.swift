// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: the web layer's bodies (url-encoded and multipart forms, JSON);
/// the first byte picks the content type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormBody(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let body = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    let types = [
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=XyZ",
        "multipart/form-data; boundary=\"a b\"",
        "multipart/form-data; boundary=", "multipart/form-data", "text/plain", "application/json",
    ]
    var headers = HTTPHeaders()
    headers.add("Content-Type", types[Int(start[0]) % types.count])
    let request = HTTPRequest(method: .post, path: "/", headers: headers, body: body)
    _ = try? request.decodeForm(limits: BodyLimits(maxPartSize: 4096, maxPartHeaderSize: 256))
    _ = try? request.decodeJSON([String: [Int]].self)
    return 0
}
