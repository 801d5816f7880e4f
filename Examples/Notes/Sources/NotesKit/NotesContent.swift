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
/// Pages and actions are async; every one that touches the database runs its SQLite call
/// on the blocking pool (`context.blocking`), off the engine's threads. Each signed-in user
/// (`--identity-header`) has a notebook of their own; anonymous visitors share one.
public struct NotesContent: Sendable {
    let store: NoteStore
    let visits: TabVisits

    /// The longest title a note may have, in characters.
    public static let maximumTitleLength = 200
    /// The longest text a note may have, in characters: any visitor may write one, so
    /// nothing they send is kept without a bound.
    public static let maximumBodyLength = 10_000
    /// The most notes a notebook holds (the anonymous visitors' shared one included).
    public static let maximumNotes = 500

    /// The content over these notes, showing the taps `visits` counts on Settings.
    public init(store: NoteStore, visits: TabVisits) {
        self.store = store
        self.visits = visits
    }

    /// The tabs' routes, for `Application.content(_:)`.
    public func tabContent() -> TabContent {
        var content = TabContent()
        content.tab("notes") { notes in
            notes.page("") { request, context in try await listPage(context) }
            notes.page("new") { _, context in
                formPage(
                    context.basePath, posting: "new", title: "New note", draft: Note.Draft(title: "", body: ""),
                    error: nil, parent: ("", context.tab?.title ?? ""))
            }
            notes.page("{id}") { _, context in try await notePage(context) }
            notes.page("{id}/edit") { _, context in try await editPage(context) }
            notes.action("new") { request, context in try await add(request, context) }
            notes.action("{id}/edit") { request, context in try await edit(request, context) }
            notes.action("{id}/delete", confirm: { _, context in deleteQuestion(context) }) { _, context in
                try await delete(context)
            }
        }
        content.tab("search") { search in
            search.page("") { request, context in try await searchPage(request, context) }
        }
        content.tab("settings") { settings in
            settings.page("") { _, context in
                try await settingsPage(context, order: context.visitorValue(NoteOrder.self) ?? .newest, error: nil)
            }
            settings.action("sort") { request, context in try await chooseOrder(request, context) }
        }
        return content
    }

    // MARK: Actions

    private func add(_ request: HTTPRequest, _ context: RequestContext) async throws -> TabActionResult {
        let draft = try request.decode(as: Note.Draft.self)
        if let error = Self.problem(with: draft) {
            return .invalid(
                formPage(
                    context.basePath, posting: "new", title: "New note", draft: draft, error: error,
                    parent: ("", context.tab?.title ?? "")))
        }
        let owner = Self.owner(context.user)
        let limit = Self.maximumNotes
        guard let id = try await context.blocking({ [store] in try store.add(draft, owner: owner, limit: limit) })
        else {
            return .invalid(
                formPage(
                    context.basePath, posting: "new", title: "New note", draft: draft,
                    error: "This notebook is full (\(limit) notes): delete one first.",
                    parent: ("", context.tab?.title ?? "")))
        }
        return .redirect(to: String(id), notice: "Saved “\(draft.title)”.")
    }

    private func edit(_ request: HTTPRequest, _ context: RequestContext) async throws -> TabActionResult {
        let owner = Self.owner(context.user)
        guard let id = Self.id(context.parameters),
            let note = try await context.blocking({ [store] in try store.note(id: id, owner: owner) })
        else {
            throw HTTPError.notFound("There is no such note.")
        }
        let draft = try request.decode(as: Note.Draft.self)
        if let error = Self.problem(with: draft) {
            return .invalid(
                formPage(
                    context.basePath, posting: "\(id)/edit", title: "Edit note", draft: draft, error: error,
                    parent: ("\(id)", note.title)))
        }
        guard try await context.blocking({ [store] in try store.update(id: id, with: draft, owner: owner) }) else {
            throw HTTPError.notFound("There is no such note.")
        }
        return .redirect(to: String(id), notice: "Saved “\(draft.title)”.")
    }

    /// The question before a delete; nil (no question: the action answers 404) when there
    /// is no such note. (A question is asked synchronously: one read by primary key.)
    private func deleteQuestion(_ context: RequestContext) -> String? {
        guard let id = Self.id(context.parameters),
            let note = try? store.note(id: id, owner: Self.owner(context.user))
        else { return nil }
        return "Delete “\(note.title)”? This cannot be undone."
    }

    private func delete(_ context: RequestContext) async throws -> TabActionResult {
        let owner = Self.owner(context.user)
        let deleted = try await context.blocking { [store] () throws -> Note? in
            guard let id = Self.id(context.parameters), let note = try store.note(id: id, owner: owner),
                try store.delete(id: id, owner: owner)
            else { return nil }
            return note
        }
        guard let note = deleted else { throw HTTPError.notFound("There is no such note.") }
        return .redirect(to: "", notice: "Deleted “\(note.title)”.")
    }

    /// The Settings form's one field.
    private struct SortChoice: Decodable {
        var sort: NoteOrder?
    }

    private func chooseOrder(_ request: HTTPRequest, _ context: RequestContext) async throws -> TabActionResult {
        guard let order = (try? request.decode(as: SortChoice.self))?.sort else {
            return .invalid(
                try await settingsPage(
                    context, order: context.visitorValue(NoteOrder.self) ?? .newest,
                    error: "Choose one of the orders."))
        }
        context.setVisitorValue(order)
        return .redirect(to: "", notice: "The notes list is now sorted: \(order.label).")
    }

    // MARK: Pages

    private func listPage(_ context: RequestContext) async throws -> TabPage {
        let order = context.visitorValue(NoteOrder.self) ?? .newest
        let owner = Self.owner(context.user)
        let notes = try await context.blocking { [store] in try store.notes(owner: owner, order: order) }
        let base = context.basePath
        return TabPage(
            title: context.tab?.title ?? "",
            context: [
                "isList": true, "notes": .array(notes.map { Self.row($0, base: base) }),
                "isEmpty": .bool(notes.isEmpty), "count": .string(String(notes.count)),
                "sortLabel": .string(order.label), "newHref": .string(base + "/tabs/notes/new"),
                "settingsHref": .string(base + "/tabs/settings"),
            ])
    }

    private func notePage(_ context: RequestContext) async throws -> TabPage? {
        guard let (id, note) = try await note(context) else { return nil }
        let base = context.basePath + "/tabs/notes/\(id)"
        return TabPage(
            title: note.title, parentLocation: "", parentTitle: context.tab?.title ?? "",
            context: [
                "note": [
                    "id": .string(String(id)), "title": .string(note.title),
                    "paragraphs": .array(note.body.split(whereSeparator: \.isNewline).map { .string(String($0)) }),
                    "editHref": .string(base + "/edit"), "deleteAction": .string(base + "/delete"),
                ]
            ])
    }

    private func editPage(_ context: RequestContext) async throws -> TabPage? {
        guard let (id, note) = try await note(context) else { return nil }
        return formPage(
            context.basePath, posting: "\(id)/edit", title: "Edit note",
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

    /// The note the location's `{id}` names, in the visitor's notebook (nil: none).
    private func note(_ context: RequestContext) async throws -> (Int64, Note)? {
        guard let id = Self.id(context.parameters) else { return nil }
        let owner = Self.owner(context.user)
        return try await context.blocking { [store] in try store.note(id: id, owner: owner) }.map { (id, $0) }
    }

    private func searchPage(_ request: HTTPRequest, _ context: RequestContext) async throws -> TabPage {
        let query = request.queryValue("q") ?? ""
        let owner = Self.owner(context.user)
        let results =
            query.isEmpty ? [] : try await context.blocking { [store] in try store.search(query, owner: owner) }
        let base = context.basePath
        return TabPage(
            title: context.tab?.title ?? "",
            context: [
                "query": .string(query), "hasQuery": .bool(!query.isEmpty),
                "resultCount": .string(String(results.count)),
                "results": .array(results.map { Self.row($0, base: base) }),
            ])
    }

    private func settingsPage(_ context: RequestContext, order: NoteOrder, error: String?) async throws -> TabPage {
        let user = context.user
        let count = try await context.blocking { [store] in try store.count(owner: Self.owner(user)) }
        let facts: [(String, String)] = [
            ("Language", context.language), ("Notebook", user.map { "\($0)’s own" } ?? "Shared by anonymous visitors"),
            ("Notes", String(count)),
            ("Times Notes was opened", String(visits.visits(of: "notes"))),
            ("Times Search was opened", String(visits.visits(of: "search"))),
        ]
        let orders: [MustacheValue] = NoteOrder.allCases.map { choice in
            ["value": .string(choice.rawValue), "label": .string(choice.label), "checked": .bool(choice == order)]
        }
        return TabPage(
            title: context.tab?.title ?? "",
            context: [
                "sortAction": .string(context.basePath + "/tabs/settings/sort"), "orders": .array(orders),
                "error": error.map(MustacheValue.string) ?? .null,
                "facts": .array(facts.map { ["label": .string($0.0), "value": .string($0.1)] }),
            ])
    }

    // MARK: Helpers

    /// The notebook of a signed-in user, or the shared one ("").
    static func owner(_ user: String?) -> String { user ?? "" }

    /// The note id the location names; nil (a 404, as for any note not found) when it is
    /// not a positive number.
    static func id(_ parameters: RouteParameters) -> Int64? {
        (try? parameters.require("id", as: Int64.self)).flatMap { $0 > 0 ? $0 : nil }
    }

    /// What is wrong with the title, or nil when the note may be saved.
    static func problem(with draft: Note.Draft) -> String? {
        if draft.title.isEmpty { return "A note needs a title." }
        if draft.title.count > maximumTitleLength { return "A title has at most \(maximumTitleLength) characters." }
        if draft.body.count > maximumBodyLength { return "A note has at most \(maximumBodyLength) characters." }
        return nil
    }

    static func row(_ note: Note, base: String) -> MustacheValue {
        [
            "id": .string(String(note.id)), "title": .string(note.title), "excerpt": .string(note.body),
            "href": .string(base + "/tabs/notes/\(note.id)"),
        ]
    }
}
