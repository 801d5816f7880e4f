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

    /// README.md, every page in docs/ and the DocC catalog's articles.
    var markdownFiles: [String] {
        func pages(in folder: String) -> [String] {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: TestFixtures.repositoryRoot + "/" + folder))
            return (names ?? []).filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
        }
        return ["README.md"] + pages(in: "docs") + pages(in: "Sources/TabServerCore/TabServerCore.docc")
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
                // A fence of any language (swift, json, mustache) right after the marker.
                let fence = try #require(afterMarker.range(of: "```"))
                let fenceLineEnd = try #require(afterMarker[fence.upperBound...].firstIndex(of: "\n"))
                let body = afterMarker[afterMarker.index(after: fenceLineEnd)...]
                let fenceEnd = try #require(body.range(of: "\n```"))
                let block = String(body[..<fenceEnd.lowerBound]) + "\n"
                #expect(block == (try read(path)), "\(file): the block for \(path) differs from the file")
                checked += 1
                rest = body[fenceEnd.upperBound...]
            }
        }
        #expect(checked >= 8, "the docs show the example apps' code (\(checked) blocks)")
    }
}
