// SPDX-License-Identifier: Apache-2.0
import TabServer

/// The pages and actions of the three tabs, all plain forms (JavaScript optional):
///
/// - Notes: the list (`/tabs/notes`, in the visitor's sort order), a note
///   (`/tabs/notes/{id}`), a new note (`/tabs/notes/new`), editing (`/tabs/notes/{id}/edit`)
///   and deleting, asked first (`POST /tabs/notes/{id}/delete`);
/// - Search: the stored notes whose title or body has the query (`/tabs/search?q=milk`);
/// - Settings: the list's sort order, a per-visitor setting (`POST /tabs/settings/sort`).
///
/// Every page and action that touches the database runs off the engine's threads
/// (`loading:`, `performing:`). Each signed-in user (`--identity-header`) has a notebook
/// of their own; anonymous visitors share one.
public struct NotesContent: Sendable {
    let store: NoteStore
    let visits: TabVisits

    /// The longest title a note may have, in characters.
    public static let maximumTitleLength = 200

    /// The content over these notes, showing the taps `visits` counts on Settings.
    public init(store: NoteStore, visits: TabVisits) {
        self.store = store
        self.visits = visits
    }

    /// The tabs' routes, for `buildApplication`.
    public func tabContent() -> TabContent {
        var content = TabContent()
        content.tab("notes") { notes in
            notes.page("", loading: { request in try listPage(request) })
            notes.page("new") { request in
                formPage(
                    request.basePath, posting: "new", title: "New note", draft: Note.Draft(title: "", body: ""),
                    error: nil, parent: ("", request.tab.title))
            }
            notes.page("{id}", loading: { request in try notePage(request) })
            notes.page("{id}/edit", loading: { request in try editPage(request) })
            notes.action("new", performing: { request in try add(request) })
            notes.action("{id}/edit", performing: { request in try edit(request) })
            notes.action(
                "{id}/delete", confirm: { request in deleteQuestion(request) },
                performing: { request in try delete(request) })
        }
        content.tab("search") { search in
            search.page("", loading: { request in try searchPage(request) })
        }
        content.tab("settings") { settings in
            settings.page(
                "",
                loading: { request in
                    try settingsPage(
                        tab: request.tab, basePath: request.basePath, language: request.language, user: request.user,
                        order: NoteOrder(visitorValues: request.visitorValues), error: nil)
                })
            settings.action("sort", performing: { request in try chooseOrder(request) })
        }
        return content
    }

    // MARK: Actions

    private func add(_ request: TabActionRequest) throws -> TabActionResult {
        let draft = Self.draft(request.form)
        if let error = Self.problem(with: draft) {
            return .invalid(
                formPage(
                    request.basePath, posting: "new", title: "New note", draft: draft, error: error,
                    parent: ("", request.tab.title)))
        }
        let id = try store.add(draft, owner: Self.owner(request.user))
        return .redirect(to: String(id), notice: "Saved “\(draft.title)”.")
    }

    private func edit(_ request: TabActionRequest) throws -> TabActionResult {
        let owner = Self.owner(request.user)
        guard let id = Self.id(request.parameters), let note = try store.note(id: id, owner: owner) else {
            throw HTTPError.notFound("There is no such note.")
        }
        let draft = Self.draft(request.form)
        if let error = Self.problem(with: draft) {
            return .invalid(
                formPage(
                    request.basePath, posting: "\(id)/edit", title: "Edit note", draft: draft, error: error,
                    parent: ("\(id)", note.title)))
        }
        guard try store.update(id: id, with: draft, owner: owner) else {
            throw HTTPError.notFound("There is no such note.")
        }
        return .redirect(to: String(id), notice: "Saved “\(draft.title)”.")
    }

    /// The question before a delete; nil (no question: the action answers 404) when there
    /// is no such note.
    private func deleteQuestion(_ request: TabActionRequest) -> String? {
        guard let id = Self.id(request.parameters),
            let note = try? store.note(id: id, owner: Self.owner(request.user))
        else { return nil }
        return "Delete “\(note.title)”? This cannot be undone."
    }

    private func delete(_ request: TabActionRequest) throws -> TabActionResult {
        let owner = Self.owner(request.user)
        guard let id = Self.id(request.parameters), let note = try store.note(id: id, owner: owner),
            try store.delete(id: id, owner: owner)
        else { throw HTTPError.notFound("There is no such note.") }
        return .redirect(to: "", notice: "Deleted “\(note.title)”.")
    }

    private func chooseOrder(_ request: TabActionRequest) throws -> TabActionResult {
        guard let order = request.form.value("sort").flatMap(NoteOrder.init(rawValue:)) else {
            return .invalid(
                try settingsPage(
                    tab: request.tab, basePath: request.basePath, language: request.language, user: request.user,
                    order: NoteOrder(visitorValues: request.visitorValues), error: "Choose one of the orders."))
        }
        var values = request.visitorValues
        values[NoteOrder.visitorKey] = order.rawValue
        return .redirect(to: "", notice: "The notes list is now sorted: \(order.label).", visitorValues: values)
    }

    // MARK: Pages

    private func listPage(_ request: TabPageRequest) throws -> TabPage {
        let order = NoteOrder(visitorValues: request.visitorValues)
        let notes = try store.notes(owner: Self.owner(request.user), order: order)
        return TabPage(
            title: request.tab.title,
            context: [
                "isList": true, "notes": .array(notes.map { Self.row($0, base: request.basePath) }),
                "isEmpty": .bool(notes.isEmpty), "count": .string(String(notes.count)),
                "sortLabel": .string(order.label), "newHref": .string(request.basePath + "/tabs/notes/new"),
                "settingsHref": .string(request.basePath + "/tabs/settings"),
            ])
    }

    private func notePage(_ request: TabPageRequest) throws -> TabPage? {
        guard let id = Self.id(request.parameters), let note = try store.note(id: id, owner: Self.owner(request.user))
        else { return nil }
        let base = request.basePath + "/tabs/notes/\(id)"
        return TabPage(
            title: note.title, parentLocation: "", parentTitle: request.tab.title,
            context: [
                "note": [
                    "id": .string(String(id)), "title": .string(note.title),
                    "paragraphs": .array(note.body.split(whereSeparator: \.isNewline).map { .string(String($0)) }),
                    "editHref": .string(base + "/edit"), "deleteAction": .string(base + "/delete"),
                ]
            ])
    }

    private func editPage(_ request: TabPageRequest) throws -> TabPage? {
        guard let id = Self.id(request.parameters), let note = try store.note(id: id, owner: Self.owner(request.user))
        else { return nil }
        return formPage(
            request.basePath, posting: "\(id)/edit", title: "Edit note",
            draft: Note.Draft(title: note.title, body: note.body), error: nil, parent: ("\(id)", note.title))
    }

    private func formPage(
        _ basePath: String, posting location: String, title: String, draft: Note.Draft, error: String?,
        parent: (location: String, title: String)
    ) -> TabPage {
        var form = TabForm(
            action: basePath + "/tabs/notes/" + location, submitLabel: "Save",
            message: error == nil ? nil : "The note was not saved: check the field below.")
        form.add("title", label: "Title", value: draft.title, error: error)
        form.add("body", label: "Note", value: draft.body, kind: .multiline)
        return TabPage(
            title: title, parentLocation: parent.location, parentTitle: parent.title, context: ["form": form.context])
    }

    private func searchPage(_ request: TabPageRequest) throws -> TabPage {
        let query = request.queryValue("q") ?? ""
        let results = query.isEmpty ? [] : try store.search(query, owner: Self.owner(request.user))
        return TabPage(
            title: request.tab.title,
            context: [
                "query": .string(query), "hasQuery": .bool(!query.isEmpty),
                "resultCount": .string(String(results.count)),
                "results": .array(results.map { Self.row($0, base: request.basePath) }),
            ])
    }

    private func settingsPage(
        tab: Tab, basePath: String, language: String, user: String?, order: NoteOrder, error: String?
    ) throws -> TabPage {
        let facts: [(String, String)] = [
            ("Language", language), ("Notebook", user.map { "\($0)’s own" } ?? "Shared by anonymous visitors"),
            ("Notes", String(try store.count(owner: Self.owner(user)))),
            ("Times Notes was opened", String(visits.visits(of: "notes"))),
            ("Times Search was opened", String(visits.visits(of: "search"))),
        ]
        let orders: [MustacheValue] = NoteOrder.allCases.map { choice in
            ["value": .string(choice.rawValue), "label": .string(choice.label), "checked": .bool(choice == order)]
        }
        return TabPage(
            title: tab.title,
            context: [
                "sortAction": .string(basePath + "/tabs/settings/sort"), "orders": .array(orders),
                "error": error.map(MustacheValue.string) ?? .null,
                "facts": .array(facts.map { ["label": .string($0.0), "value": .string($0.1)] }),
            ])
    }

    // MARK: Helpers

    /// The notebook of a signed-in user, or the shared one ("").
    static func owner(_ user: String?) -> String { user ?? "" }

    static func id(_ parameters: RouteParameters) -> Int64? {
        parameters["id"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    static func draft(_ form: FormData) -> Note.Draft {
        Note.Draft(title: (form.value("title") ?? "").trimmingWhitespace, body: form.value("body") ?? "")
    }

    /// What is wrong with the title, or nil when the note may be saved.
    static func problem(with draft: Note.Draft) -> String? {
        if draft.title.isEmpty { return "A note needs a title." }
        if draft.title.count > maximumTitleLength { return "A title has at most \(maximumTitleLength) characters." }
        return nil
    }

    static func row(_ note: Note, base: String) -> MustacheValue {
        [
            "id": .string(String(note.id)), "title": .string(note.title), "excerpt": .string(note.body),
            "href": .string(base + "/tabs/notes/\(note.id)"),
        ]
    }
}

extension String {
    /// Without whitespace and newlines at either end.
    fileprivate var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
