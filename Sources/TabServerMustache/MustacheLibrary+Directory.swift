// SPDX-License-Identifier: Apache-2.0
// The only file of the module that uses Foundation: loading templates happens once, at
// start-up; parsing and rendering never touch it.
import FoundationEssentials

extension MustacheLibrary {
    /// Loads every `*.fileExtension` file under `directory`, recursively.
    ///
    /// A template's name is its path relative to `directory`, without the extension,
    /// with `/` separators: `Templates/partials/tabbar.mustache` is `partials/tabbar`.
    ///
    /// - Throws: ``MustacheError`` whose `file` is the file's path: for a syntax error
    ///   with its line, column and reason; for an unreadable file or directory at 1:1.
    public init(directory: String, fileExtension: String = "mustache") throws(MustacheError) {
        try self.init(directories: [directory], fileExtension: fileExtension)
    }

    /// Loads several folders as one library: a template in a later folder replaces the
    /// one of the same name from an earlier folder (an app's own `Templates/` over
    /// TabServer's layout and pages).
    public init(directories: [String], fileExtension: String = "mustache") throws(MustacheError) {
        self.init()
        for directory in directories {
            try load(directory, fileExtension: fileExtension)
        }
    }

    private mutating func load(_ directory: String, fileExtension: String) throws(MustacheError) {
        let files = FileManager.default
        var isDirectory = false
        guard files.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory,
            let allPaths = try? files.subpathsOfDirectory(atPath: directory)
        else {
            throw MustacheError(file: directory, line: 1, column: 1, reason: "not a readable directory")
        }
        let suffix = "." + fileExtension
        let relativePaths = allPaths.filter { $0.hasSuffix(suffix) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        for relativePath in relativePaths.sorted() {
            let path = base + relativePath
            var isFolder = false
            guard files.fileExists(atPath: path, isDirectory: &isFolder), !isFolder else { continue }
            guard let data = files.contents(atPath: path) else {
                throw MustacheError(file: path, line: 1, column: 1, reason: "cannot read file")
            }
            guard let source = String(data: data, encoding: .utf8) else {
                throw MustacheError(file: path, line: 1, column: 1, reason: "not valid UTF-8")
            }
            let name = String(relativePath.dropLast(suffix.count))
            do throws(MustacheError) {
                register(try MustacheTemplate(source, name: name), named: name)
            } catch {
                throw MustacheError(file: path, line: error.line, column: error.column, reason: error.reason)
            }
        }
    }
}
