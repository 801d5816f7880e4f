// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerAppModel
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

    /// The folder of the Swift package named `name` (its `Package.swift` says
    /// `name: "<name>"`): the package whose tests are running, found from where SwiftPM
    /// built them (the folder holding `.build`), or one below it (an example built as
    /// part of a larger package). An app's tests find their `tabs.json`, `Templates/` and
    /// `Public/` with it, wherever the package is checked out. Falls back to the working
    /// directory.
    ///
    /// ```swift
    /// configuration.tabsFile = TestFixtures.packageRoot(of: "FirstTabApp") + "/tabs.json"
    /// ```
    public static func packageRoot(of name: String) -> String {
        func declares(_ folder: String) -> Bool {
            guard let data = FileManager.default.contents(atPath: folder + "/Package.swift") else { return false }
            let text = String(decoding: data, as: UTF8.self)
            guard let package = text.range(of: "Package(") else { return false }
            let rest = text[package.upperBound...].drop { $0 == " " || $0 == "\n" }
            return rest.hasPrefix("name: \"\(name)\"")
        }
        var folder = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        while !folder.isEmpty, folder != "/" {
            folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
            if FileManager.default.fileExists(atPath: folder + "/.build") || declares(folder) { break }
        }
        if declares(folder) { return folder }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for child in children.sorted() where !child.hasPrefix(".") {
            for candidate in [folder + "/" + child]
                + ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + child)) ?? []).map({
                    folder + "/" + child + "/" + $0
                })
            where declares(candidate) {
                return candidate
            }
        }
        return FileManager.default.currentDirectoryPath
    }

    /// What an app's tests run on: the package named `name` (see `packageRoot(of:)`) with
    /// its `tabs.json`, its `Templates/` and `Public/` (those that exist) over the
    /// library's, sessions in memory and no access log. Change what a test needs, then
    /// build the app on it.
    ///
    /// ```swift
    /// let app = Application(configuration: TestFixtures.configuration(ofPackage: "FirstTabApp"))
    /// ```
    public static func configuration(ofPackage name: String) -> AppConfiguration {
        let folder = packageRoot(of: name)
        func existing(_ child: String) -> [String] {
            var isFolder = false
            let path = folder + "/" + child
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder ? [path] : []
        }
        var configuration = AppConfiguration()
        configuration.tabsFile = folder + "/tabs.json"
        configuration.templateOverlays = existing("Templates")
        configuration.publicOverlays = existing("Public")
        configuration.sessions = .memory()
        configuration.accessLog = false
        return configuration
    }

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
