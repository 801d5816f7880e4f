// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: the `Cookie` header scanner; lines of the input are header values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var request = HTTPRequest(method: .get, path: "/", remoteAddress: "127.0.0.1")
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        request.headers.add("Cookie", String(line))
    }
    for name in ["tabserver_session", "a", "", "=", " a"] { _ = request.cookie(name) }
    return 0
}
