// SPDX-License-Identifier: Apache-2.0
import NotesKit
import TabServer
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A Notes app in-process on the example's own tabs, templates and icons, memory sessions
/// and a fresh notes database in a temporary folder (or the one given, to reopen it).
struct NotesFixture {
    /// Start-up messages go nowhere instead of cluttering the test output.
    static let quietLog = LogSink(descriptor: open("/dev/null", O_WRONLY))

    let app: Application
    let store: NoteStore

    init(databasePath: String? = nil, configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        var configuration = TestFixtures.configuration(ofPackage: "Notes")
        configuration.appName = "Notes"
        configure(&configuration)
        let path = databasePath ?? Self.newDatabasePath()
        store = try NoteStore(path: path)
        app = Application(configuration: configuration, log: Self.quietLog)
        app.addNotes(store: store)
        try app.build()
    }

    /// A path in a new temporary folder (the store creates the file).
    static func newDatabasePath() -> String {
        TestFixtures.temporaryDirectory("notes-test") + "/data/notes.sqlite"
    }

    /// A new visitor.
    func visitor() -> TestClient { TestClient(app.responder) }
}

extension TestResponse {
    /// The ids of the notes listed (`data-note` of each row), in order.
    var noteIDs: [String] {
        tags(containing: "class=\"row\" href=").compactMap { tag in
            guard let range = tag.range(of: "data-note=\"") else { return nil }
            return String(tag[range.upperBound...].prefix { $0 != "\"" })
        }
    }
}
