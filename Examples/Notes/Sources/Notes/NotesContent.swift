// SPDX-License-Identifier: Apache-2.0
import TabServer

/// The pages of the three tabs: a list of notes and each note, a search with results as
/// shareable URLs (`/tabs/search?q=milk`), and a settings summary.
struct NotesContent: TabContentProvider {
    let notebook: Notebook

    func page(for request: TabPageRequest) -> TabPage? {
        let base = request.basePath + "/tabs/notes/"
        switch (request.tab.id, request.location.count) {
        case ("notes", 0):
            let rows = notebook.notes.indices.map { row($0, base: base) }
            return TabPage(title: request.tab.title, context: ["isList": true, "notes": .array(rows)])
        case ("notes", 1):
            guard let index = Int(request.location[0]), notebook.notes.indices.contains(index - 1) else { return nil }
            let note = notebook.notes[index - 1]
            return TabPage(
                title: note.title, parentLocation: "", parentTitle: request.tab.title,
                context: ["note": ["title": .string(note.title), "body": .string(note.body)]])
        case ("search", 0):
            let query = request.queryValue("q") ?? ""
            let results = query.isEmpty ? [] : notebook.search(query).map { row($0.index, base: base) }
            return TabPage(
                title: request.tab.title,
                context: [
                    "query": .string(query), "hasQuery": .bool(!query.isEmpty),
                    "resultCount": .string(String(results.count)), "results": .array(results),
                ])
        case ("settings", 0):
            let facts: [(String, String)] = [
                ("Language", request.language), ("Notes", String(notebook.notes.count)),
                ("Times Notes was opened", String(notebook.visitCount(of: "notes"))),
                ("Times Search was opened", String(notebook.visitCount(of: "search"))),
            ]
            return TabPage(
                title: request.tab.title,
                context: ["facts": .array(facts.map { ["label": .string($0.0), "value": .string($0.1)] })])
        default:
            return nil
        }
    }

    private func row(_ index: Int, base: String) -> MustacheValue {
        let note = notebook.notes[index]
        return ["title": .string(note.title), "excerpt": .string(note.body), "href": .string(base + String(index + 1))]
    }
}
