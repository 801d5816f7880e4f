// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: quality-value lists (`Accept-Language`); lines are field values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQualityValue(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    _ = QualityValue.list(values)
    _ = QualityValue.preferred(values)
    return 0
}
