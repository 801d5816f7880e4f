// SPDX-License-Identifier: Apache-2.0
/// libFuzzer target: Mustache templates, compiled and rendered with a small context.
nonisolated(unsafe) let context: MustacheValue = [
    "name": "Ada", "list": [["x": 1], ["x": 2]], "flag": true, "html": "<b>&</b>", "empty": [],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let template = try? MustacheTemplate(source) else { return 0 }
    var library = MustacheLibrary()
    library.register(template, named: "self")
    var buffer: [UInt8] = []
    template.render(context, partials: library, into: &buffer)
    return 0
}
