// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerMustache
import Testing

/// The official spec's JSON files, read from `../shared/mustache-spec/` next to the
/// package (or `MUSTACHE_SPEC_DIR`), never copied into the repository.
enum SpecSuite {
    /// The spec folder, or `nil` when it is absent (the spec tests are then skipped).
    static let directory: String? = {
        if let override = ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"], !override.isEmpty {
            return exists(override) ? override : nil
        }
        // Tests/MustacheTests/SpecSuite.swift → the package root, three levels up.
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = packageRoot.appendingPathComponent("../shared/mustache-spec").standardizedFileURL.path
        return exists(candidate) ? candidate : nil
    }()

    static var isAvailable: Bool { directory != nil }

    /// The cases of one spec file (`"comments"` reads `comments.json`); empty when the
    /// folder is absent, in which case the tests using them are disabled.
    static func cases(_ file: String) -> [SpecCase] {
        guard let directory else { return [] }
        let path = directory + "/" + file + ".json"
        guard let data = FileManager.default.contents(atPath: path) else {
            // A missing file inside a present folder is a broken checkout: fail loudly.
            return [SpecCase(file: file, name: "\(file).json is missing from \(directory)", missing: true)]
        }
        do {
            let spec = try JSONDecoder().decode(SpecFile.self, from: data)
            return spec.tests.map { SpecCase(file: file, test: $0) }
        } catch {
            return [SpecCase(file: file, name: "\(file).json does not decode: \(error)", missing: true)]
        }
    }

    private static func exists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// One test of a spec file.
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let template: String
    let data: MustacheValue
    let partials: [String: String]
    let expected: String
    /// Set when the file could not be read: the case exists only to fail.
    let missing: Bool

    var testDescription: String { "\(file): \(name)" }

    init(file: String, test: SpecFile.Test) {
        self.file = file
        self.name = test.name
        self.template = test.template
        self.data = test.data.value
        self.partials = test.partials ?? [:]
        self.expected = test.expected
        self.missing = false
    }

    init(file: String, name: String, missing: Bool) {
        self.file = file
        self.name = name
        self.template = ""
        self.data = .null
        self.partials = [:]
        self.expected = ""
        self.missing = missing
    }
}

/// The shape of a spec file (only the fields the tests use).
struct SpecFile: Decodable {
    struct Test: Decodable {
        let name: String
        let data: JSONValue
        let template: String
        let partials: [String: String]?
        let expected: String
    }

    let tests: [Test]
}

/// Decodes any JSON into a `MustacheValue`.
///
/// `JSONDecoder` rather than `JSONSerialization`: the latter hands back `NSNumber` for
/// both `true` and `1`, while the decoder refuses to read a number as `Bool` or a
/// boolean as `Int`, so trying `Bool` first tells them apart. Integral numbers become
/// `.int`, others `.double`.
struct JSONValue: Decodable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            value = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            value = .array(array.map(\.value))
        } else {
            value = .object(try container.decode([String: JSONValue].self).mapValues(\.value))
        }
    }
}
