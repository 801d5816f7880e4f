// SPDX-License-Identifier: Apache-2.0

/// One stored note.
public struct Note: Sendable, Equatable, Decodable {
    /// Its id in the notes table (also its URL: `/tabs/notes/{id}`).
    public let id: Int64
    /// Its title: never empty, at most `NotesContent.maximumTitleLength` characters.
    public var title: String
    /// Its text, as typed (lines kept).
    public var body: String

    /// A note as stored.
    public init(id: Int64, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }

    /// A note as the form sends it (fields `title` and `body`), before it has an id.
    public struct Draft: Sendable, Equatable, Decodable {
        /// The title, trimmed of surrounding whitespace.
        public var title: String
        /// The text.
        public var body: String

        /// A draft with this title and text.
        public init(title: String, body: String) {
            self.title = title
            self.body = body
        }

        private enum CodingKeys: String, CodingKey { case title, body }

        /// From the form: the title trimmed of whitespace at either end, no text as "".
        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            let typed = try fields.decode(String.self, forKey: .title)
            let trailing = typed.reversed().prefix(while: \.isWhitespace).count
            title = String(typed.drop(while: \.isWhitespace).dropLast(trailing))
            body = try fields.decodeIfPresent(String.self, forKey: .body) ?? ""
        }
    }

    /// The notes a new database starts with, in the shared notebook.
    static let samples = [
        Draft(title: "Buy milk", body: "Oat milk, two cartons, and bread if the bakery is open."),
        Draft(title: "Call the plumber", body: "The kitchen tap drips again; ask about Thursday morning."),
        Draft(title: "Book club", body: "Finish chapter nine before Friday; bring the milk tea recipe."),
        Draft(title: "Trip to Lisbon", body: "Trams, tiles and custard tarts: check the train times."),
    ]
}
