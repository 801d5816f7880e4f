// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: decoding a tab definition (`tabs.json`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTabsJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? TabBarModel.decode(json: Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}
