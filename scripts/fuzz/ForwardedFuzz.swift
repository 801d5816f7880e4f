// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: forwarded headers from a trusted peer (`Forwarded`, `X-Forwarded-*`)
/// and address ranges; lines of the input are the values.
nonisolated(unsafe) let trust = try! ProxyTrust("127.0.0.0/8, ::1, 10.0.0.0/8")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForwarded(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let names = ["Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Prefix"]
    var request = HTTPRequest(method: .get, path: "/", remoteAddress: "127.0.0.1")
    for (index, line) in lines.enumerated() { request.headers.add(names[index % names.count], line) }
    let origin = trust.origin(of: request)
    precondition(origin.scheme == "http" || origin.scheme == "https", "a scheme other than http or https")
    _ = AddressRange(text)
    _ = try? ProxyTrust(text)
    return 0
}
