// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The notes, and how often each tab was tapped (kept by the `didSelect` hook).
final class Notebook: Sendable {
    struct Note: Sendable {
        let title: String
        let body: String
    }

    let notes: [Note]
    private let visits = Mutex<[String: Int]>([:])

    init(notes: [Note]) { self.notes = notes }

    static let sample = Notebook(notes: [
        Note(title: "Buy milk", body: "Oat milk, two cartons, and bread if the bakery is open."),
        Note(title: "Call the plumber", body: "The kitchen tap drips again; ask about Thursday morning."),
        Note(title: "Book club", body: "Finish chapter nine before Friday; bring the milk tea recipe."),
        Note(title: "Trip to Lisbon", body: "Trams, tiles and custard tarts: check the train times."),
    ])

    /// Notes whose title or body contains `query`, ignoring case.
    func search(_ query: String) -> [(index: Int, note: Note)] {
        let wanted = query.lowercased()
        return notes.enumerated().filter {
            $0.element.title.lowercased().contains(wanted) || $0.element.body.lowercased().contains(wanted)
        }.map { (index: $0.offset, note: $0.element) }
    }

    func countVisit(to tabID: String) { visits.withLock { $0[tabID, default: 0] += 1 } }

    func visitCount(of tabID: String) -> Int { visits.withLock { $0[tabID, default: 0] } }
}
