// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerTesting
import Testing

@Suite("The docs' Swift examples are the example app's real code")
struct ReadmeExampleTests {
    func read(_ path: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.repositoryRoot + "/" + path))
        return String(decoding: data, as: UTF8.self)
    }

    /// README.md and every page in docs/.
    var markdownFiles: [String] {
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: TestFixtures.repositoryRoot + "/docs")) ?? []
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test("each `<!-- example: PATH -->` block in README.md and docs/ equals that file")
    func blocksMatchFiles() throws {
        let marker = "<!-- example: "
        var checked = 0
        for file in markdownFiles {
            let text = try read(file)
            var rest = text[...]
            while let start = rest.range(of: marker) {
                let afterMarker = rest[start.upperBound...]
                let pathEnd = try #require(afterMarker.range(of: " -->"))
                let path = String(afterMarker[..<pathEnd.lowerBound])
                let fenceStart = try #require(afterMarker.range(of: "```swift\n"))
                let body = afterMarker[fenceStart.upperBound...]
                let fenceEnd = try #require(body.range(of: "\n```"))
                let block = String(body[..<fenceEnd.lowerBound]) + "\n"
                #expect(block == (try read(path)), "\(file): the block for \(path) differs from the file")
                checked += 1
                rest = body[fenceEnd.upperBound...]
            }
        }
        #expect(checked >= 1, "the docs show the example app's code")
    }
}
