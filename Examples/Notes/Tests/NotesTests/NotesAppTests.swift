// SPDX-License-Identifier: Apache-2.0
import NotesKit
import TabServer
import TabServerTesting
import Testing

/// The Notes app in-process: adding, editing, deleting and searching stored notes, the
/// Settings tab's sort order, per-user notebooks and notes that outlive the process.
@Suite("Notes app")
struct NotesAppTests {
    @Test("a new note: 303 to the saved note, shown with a one-shot notice; the form page is a GET")
    func add() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let before = try notes.store.count(owner: "")
        let form = await client.get("/tabs/notes/new")
        #expect(form.status == 200)
        #expect(form.body.contains("name=\"title\""))
        #expect(form.body.contains("action=\"/tabs/notes/new\""))
        let posted = await client.post(
            "/tabs/notes/new",
            form: [("csrf", form.csrfToken ?? ""), ("title", " Water the fern "), ("body", "Sunday")])
        #expect(posted.status == 303)
        let location = try #require(posted.location)
        let id = try #require(Int64(location.dropFirst("/tabs/notes/".count)))
        #expect(location == "/tabs/notes/\(id)")
        #expect(try notes.store.count(owner: "") == before + 1)
        #expect(try notes.store.note(id: id, owner: "") == Note(id: id, title: "Water the fern", body: "Sunday"))
        let shown = await client.follow(posted)
        #expect(shown.status == 200)
        #expect(shown.body.contains("<h2>Water the fern</h2>"))
        #expect(shown.body.contains("Saved “Water the fern”."))
        await #expect(!client.get(location).body.contains("Saved “Water the fern”."), "the notice is shown once")
        // The tab remembers the saved note.
        await #expect(client.get("/").location == location)
        // Back goes to the form page, a GET: nothing is posted again.
        await #expect(client.get("/tabs/notes/new").status == 200)
        #expect(try notes.store.count(owner: "") == before + 1)
    }

    @Test("an empty title: 422 with the form, its message and the body sent; nothing stored")
    func emptyTitle() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let before = try notes.store.notes(owner: "")
        let token = await client.get("/tabs/notes/new").csrfToken ?? ""
        let posted = await client.post(
            "/tabs/notes/new", form: [("csrf", token), ("title", "   "), ("body", "kept text")])
        #expect(posted.status == 422)
        #expect(posted.location == nil)
        #expect(posted.body.contains("A note needs a title."))
        #expect(posted.body.contains("aria-invalid=\"true\""))
        #expect(posted.body.contains(">kept text</textarea>"), "what was typed is shown again")
        #expect(try notes.store.notes(owner: "") == before)
        let tooLong = await client.post(
            "/tabs/notes/new", form: [("csrf", token), ("title", String(repeating: "x", count: 201))])
        #expect(tooLong.status == 422)
        #expect(try notes.store.notes(owner: "") == before)
    }

    @Test("limits: a note's text is bounded, and so is a notebook: past either, 422 with the form, nothing stored")
    func limits() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let token = await client.get("/tabs/notes/new").csrfToken ?? ""
        let before = try notes.store.count(owner: "")
        let long = await client.post(
            "/tabs/notes/new",
            form: [
                ("csrf", token), ("title", "Long"),
                ("body", String(repeating: "x", count: NotesContent.maximumBodyLength + 1)),
            ])
        #expect(long.status == 422)
        #expect(long.body.contains("A note has at most"))
        #expect(try notes.store.count(owner: "") == before)
        // Fill the notebook to its limit directly, then one more through the form.
        for number in before..<NotesContent.maximumNotes {
            let id = try notes.store.add(
                Note.Draft(title: "n\(number)", body: ""), owner: "", limit: NotesContent.maximumNotes)
            #expect(id != nil)
        }
        let full = await client.post("/tabs/notes/new", form: [("csrf", token), ("title", "One more")])
        #expect(full.status == 422)
        #expect(full.body.contains("This notebook is full"))
        #expect(try notes.store.count(owner: "") == NotesContent.maximumNotes)
        // Another notebook is not affected.
        #expect(
            try notes.store.add(Note.Draft(title: "Mine", body: ""), owner: "alice", limit: NotesContent.maximumNotes)
                != nil)
    }

    @Test("without the CSRF token nothing is stored: 403")
    func csrf() async throws {
        let notes = try NotesFixture()
        let before = try notes.store.count(owner: "")
        let posted = await notes.visitor().post("/tabs/notes/new", form: [("title", "Forged")])
        #expect(posted.status == 403)
        #expect(try notes.store.count(owner: "") == before)
    }

    @Test("editing: the form shows the note; saving changes it and shows it; an empty title is 422, unchanged")
    func edit() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let form = await client.get("/tabs/notes/1/edit")
        #expect(form.status == 200)
        #expect(form.body.contains("value=\"Buy milk\""))
        #expect(form.body.contains("action=\"/tabs/notes/1/edit\""))
        let token = form.csrfToken ?? ""
        let invalid = await client.post("/tabs/notes/1/edit", form: [("csrf", token), ("title", ""), ("body", "x")])
        #expect(invalid.status == 422)
        #expect(try notes.store.note(id: 1, owner: "")?.title == "Buy milk")
        let saved = await client.post(
            "/tabs/notes/1/edit", form: [("csrf", token), ("title", "Buy oat milk"), ("body", "Two")])
        #expect(saved.status == 303)
        #expect(saved.location == "/tabs/notes/1")
        #expect(try notes.store.note(id: 1, owner: "") == Note(id: 1, title: "Buy oat milk", body: "Two"))
        await #expect(client.follow(saved).body.contains("<h2>Buy oat milk</h2>"))
        await #expect(client.get("/tabs/notes/99/edit").status == 404)
        await #expect(client.post("/tabs/notes/99/edit", form: [("csrf", token), ("title", "New")]).status == 404)
    }

    @Test("a delete asks first and changes nothing until confirmed; then the note is gone")
    func delete() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let page = await client.get("/tabs/notes/2")
        #expect(page.body.contains("action=\"/tabs/notes/2/delete\""))
        let before = try notes.store.count(owner: "")
        let asked = await client.post("/tabs/notes/2/delete", form: [("csrf", page.csrfToken ?? "")])
        #expect(asked.status == 200)
        #expect(asked.body.contains("Delete “Call the plumber”? This cannot be undone."))
        #expect(asked.body.contains("name=\"confirmed\" value=\"1\""))
        #expect(asked.body.contains("href=\"/tabs/notes/2\""), "Cancel goes back to the note")
        #expect(try notes.store.count(owner: "") == before, "nothing is deleted before the answer")
        let done = await client.post(
            "/tabs/notes/2/delete", form: [("csrf", asked.csrfToken ?? ""), ("confirmed", "1")])
        #expect(done.status == 303)
        #expect(done.location == "/tabs/notes")
        #expect(try notes.store.count(owner: "") == before - 1)
        #expect(try notes.store.note(id: 2, owner: "") == nil)
        let list = await client.follow(done)
        #expect(list.body.contains("Deleted “Call the plumber”."))
        #expect(!list.noteIDs.contains("2"))
        await #expect(client.get("/tabs/notes/2").status == 404)
        let again = await client.post(
            "/tabs/notes/2/delete", form: [("csrf", asked.csrfToken ?? ""), ("confirmed", "1")])
        #expect(again.status == 404)
    }

    @Test("search finds stored notes by title or body, ignoring case; % and _ are plain characters")
    func search() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let token = await client.get("/tabs/notes/new").csrfToken ?? ""
        let posted = await client.post(
            "/tabs/notes/new", form: [("csrf", token), ("title", "Quokka picnic"), ("body", "")])
        let location = try #require(posted.location)
        let found = await client.get("/tabs/search?q=QUOKKA")
        #expect(found.status == 200)
        #expect(found.body.contains("1 result(s)"))
        #expect(found.body.contains("href=\"\(location)\""))
        await #expect(
            client.get("/tabs/search?q=milk").noteIDs.sorted() == ["1", "3"], "Buy milk, and Book club's milk tea")
        await #expect(client.get("/tabs/search?q=%25").noteIDs.isEmpty)
        await #expect(client.get("/tabs/search?q=_").noteIDs.isEmpty)
    }

    @Test("the sort order is a per-visitor setting: a form on Settings changes this visitor's list only")
    func sortSetting() async throws {
        let notes = try NotesFixture()
        let client = notes.visitor()
        let list = await client.get("/tabs/notes")
        #expect(list.noteIDs == ["4", "3", "2", "1"], "newest first by default")
        #expect(list.body.contains("Newest first"))
        let settings = await client.get("/tabs/settings")
        #expect(settings.body.contains("value=\"newest\" checked"))
        let chose = await client.post(
            "/tabs/settings/sort", form: [("csrf", settings.csrfToken ?? ""), ("sort", "title")])
        #expect(chose.status == 303)
        #expect(chose.location == "/tabs/settings")
        let shown = await client.follow(chose)
        #expect(shown.body.contains("value=\"title\" checked"))
        #expect(shown.body.contains("The notes list is now sorted: By title."))
        let sorted = await client.get("/tabs/notes")
        #expect(sorted.noteIDs == ["3", "1", "2", "4"], "Book club, Buy milk, Call the plumber, Trip to Lisbon")
        #expect(sorted.body.contains("By title"))
        await #expect(
            notes.visitor().get("/tabs/notes").noteIDs == ["4", "3", "2", "1"], "another visitor keeps theirs")
        let bad = await client.post(
            "/tabs/settings/sort", form: [("csrf", settings.csrfToken ?? ""), ("sort", "random")])
        #expect(bad.status == 422)
        #expect(bad.body.contains("Choose one of the orders."))
        await #expect(client.get("/tabs/notes").noteIDs == ["3", "1", "2", "4"], "an invalid choice changes nothing")
    }

    @Test("with --identity-header each signed-in user has a notebook of their own; anonymous visitors share one")
    func perUserNotebooks() async throws {
        let notes = try NotesFixture { $0.identityHeader = "X-Forwarded-User" }
        let alice = notes.visitor()
        alice.defaultHeaders = [("X-Forwarded-User", "alice")]
        let bob = notes.visitor()
        bob.defaultHeaders = [("X-Forwarded-User", "bob")]
        await #expect(alice.get("/tabs/notes").noteIDs.isEmpty, "a user's notebook starts empty")
        let token = await alice.get("/tabs/notes/new").csrfToken ?? ""
        let posted = await alice.post(
            "/tabs/notes/new", form: [("csrf", token), ("title", "Alice's secret"), ("body", "")])
        #expect(posted.status == 303)
        let location = try #require(posted.location)
        let id = String(location.dropFirst("/tabs/notes/".count))
        await #expect(alice.get("/tabs/notes").noteIDs == [id])
        #expect(try notes.store.count(owner: "alice") == 1)
        await #expect(bob.get("/tabs/notes").noteIDs.isEmpty)
        await #expect(bob.get(location).status == 404, "another user's note is not there")
        await #expect(bob.get("/tabs/search?q=secret").noteIDs.isEmpty)
        let bobToken = await bob.get("/tabs/notes").csrfToken ?? ""
        let bobDelete = await bob.post(location + "/delete", form: [("csrf", bobToken), ("confirmed", "1")])
        #expect(bobDelete.status == 404)
        #expect(try notes.store.count(owner: "alice") == 1)
        let anonymous = notes.visitor()
        await #expect(anonymous.get("/tabs/notes").noteIDs == ["4", "3", "2", "1"], "the shared notebook")
        await #expect(anonymous.get(location).status == 404)
        let otherAnonymous = notes.visitor()
        let shared = await otherAnonymous.post(
            "/tabs/notes/new",
            form: [("csrf", otherAnonymous.get("/tabs/notes").csrfToken ?? ""), ("title", "For all"), ("body", "")])
        let sharedID = String((shared.location ?? "").dropFirst("/tabs/notes/".count))
        await #expect(anonymous.get("/tabs/notes").noteIDs.first == sharedID)
    }

    @Test("notes survive a restart: a new app on the same database file shows them")
    func restart() async throws {
        let path = NotesFixture.newDatabasePath()
        let location: String
        do {
            let first = try NotesFixture(databasePath: path)
            let client = first.visitor()
            let token = await client.get("/tabs/notes/new").csrfToken ?? ""
            let posted = await client.post(
                "/tabs/notes/new", form: [("csrf", token), ("title", "Still here"), ("body", "")])
            location = try #require(posted.location)
        }
        let second = try NotesFixture(databasePath: path)
        let client = second.visitor()
        let shown = await client.get(location)
        #expect(shown.status == 200)
        #expect(shown.body.contains("<h2>Still here</h2>"))
        #expect(try second.store.count(owner: "") == 5, "the samples are added once, when the file is new")
        let next = await client.post(
            "/tabs/notes/new",
            form: [("csrf", client.get("/tabs/notes").csrfToken ?? ""), ("title", "Next"), ("body", "")])
        #expect(next.location != location, "ids are not reused")
    }

    @Test("NOTES_DATABASE names the file; unset or empty, data/notes.sqlite")
    func databasePath() {
        #expect(NoteStore.path(in: ["NOTES_DATABASE": "/tmp/x.sqlite"]) == "/tmp/x.sqlite")
        #expect(NoteStore.path(in: ["NOTES_DATABASE": ""]) == "data/notes.sqlite")
        #expect(NoteStore.path(in: [:]) == "data/notes.sqlite")
    }

    @Test("a database that cannot be opened stops start-up naming it")
    func unopenable() {
        #expect(throws: StartupError.self) {
            try Application(configuration: TestFixtures.configuration(), log: NotesFixture.quietLog)
                .addNotes(databasePath: "/proc/no/such/notes.sqlite")
        }
    }
}
