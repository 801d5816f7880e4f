// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerCore
import TabServerHTTP

/// Paths and configurations shared by the test targets.
public enum TestFixtures {
    /// The repository root (found from this file's path, so tests run from any directory).
    public static let repositoryRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Sources/TestSupport/TestFixtures.swift
        return parts.joined(separator: "/")
    }()

    /// The tab model the tests were written for, owned by the tests
    /// (`Tests/Fixtures/tabs.json`): seven tabs and a search tab, without groups, hidden
    /// tabs, placements or layout keys, so the demo's model can grow without changing what
    /// they expect.
    public static let testTabsFile = repositoryRoot + "/Tests/Fixtures/tabs.json"

    /// The demo's own model (`tabs.json` at the repository root), what `tabserver` runs by
    /// default: for the tests of the demo itself.
    public static let demoTabsFile = repositoryRoot + "/tabs.json"

    /// A configuration on the shipped Public/, Templates/ and Locales/ with the tests' tab
    /// model (`testTabsFile`), memory sessions, port 0 on loopback, no access log.
    public static func configuration() -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.publicDirectory = repositoryRoot + "/Public"
        configuration.templatesDirectory = repositoryRoot + "/Templates"
        configuration.tabsFile = testTabsFile
        configuration.localesDirectory = repositoryRoot + "/Locales"
        configuration.http.port = 0
        configuration.http.host = "127.0.0.1"
        configuration.http.threads = 2
        configuration.accessLog = false
        configuration.sessions = .memory()
        return configuration
    }

    /// A fresh empty directory under the system temporary directory.
    public static func temporaryDirectory(_ label: String = "tabserver-test") -> String {
        let path = "/tmp/\(label)-\(UInt64.random(in: 0...UInt64.max))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to `path`, creating folders.
    public static func write(_ text: String, to path: String) {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "cannot write \(path)")
    }

    /// A copy of the shipped templates in a temporary folder, to break on purpose.
    public static func copyOfTemplates() -> String {
        let destination = temporaryDirectory("templates")
        let source = repositoryRoot + "/Templates"
        for path in try! FileManager.default.subpathsOfDirectory(atPath: source) where path.hasSuffix(".mustache") {
            let data = FileManager.default.contents(atPath: source + "/" + path)!
            write(String(decoding: data, as: UTF8.self), to: destination + "/" + path)
        }
        return destination
    }
}
