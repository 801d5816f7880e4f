// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TestSupport
import Testing

@Suite("The README's Swift API example is the example app's real code")
struct ReadmeExampleTests {
    func read(_ path: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.repositoryRoot + "/" + path))
        return String(decoding: data, as: UTF8.self)
    }

    @Test("each `<!-- example: PATH -->` block in the README equals that file")
    func blocksMatchFiles() throws {
        let readme = try read("README.md")
        let marker = "<!-- example: "
        var checked = 0
        var rest = readme[...]
        while let start = rest.range(of: marker) {
            let afterMarker = rest[start.upperBound...]
            let pathEnd = try #require(afterMarker.range(of: " -->"))
            let path = String(afterMarker[..<pathEnd.lowerBound])
            let fenceStart = try #require(afterMarker.range(of: "```swift\n"))
            let body = afterMarker[fenceStart.upperBound...]
            let fenceEnd = try #require(body.range(of: "\n```"))
            let block = String(body[..<fenceEnd.lowerBound]) + "\n"
            #expect(block == (try read(path)), "README block for \(path) differs from the file")
            checked += 1
            rest = body[fenceEnd.upperBound...]
        }
        #expect(checked >= 1, "the README shows the example app's code")
    }
}
