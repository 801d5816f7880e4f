// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: quality-value lists (`Accept-Language`); lines are field values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQualityValue(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    _ = QualityValue.list(values)
    _ = QualityValue.preferred(values)
    // The one-pass choice must be the sorted list's first match, whatever the bytes.
    let match: (Substring) -> String? = { $0.utf8.first == UInt8(ascii: "d") ? String($0) : nil }
    for value in values {
        let sorted = QualityValue.preferred([value], limit: 16).lazy.compactMap { match($0.value) }.first
        precondition(QualityValue.mostPreferred(in: value, limit: 16, where: match) == sorted)
    }
    return 0
}
