// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerViews
import TabServerWeb

/// The commit: the session written back if the request changed it (a new one only when it
/// holds something to remember), confirmed current if it did not, the answer sent once
/// what it rests on is durable, then the hooks and the visitor's other windows told. A
/// store that writes with a round trip (Redis) is asked without holding the loop: in its
/// pipeline, or on the blocking pool.
extension TabServerResponder {
    /// How an attempt ends.
    enum Settled: Sendable {
        /// The answer to send, and what is left to do before it is sent (`finishCommit`): that is
        /// done after the visitor's lock is let go, so the visitor's next request need not
        /// wait for this one's group commit (it reads the copy this one wrote).
        case answer(HTTPResponse, then: Finishing?)
        /// Another write came first: run the request again on the fresh session.
        case again
        /// The write or check is in the store's pipeline: its answer is awaited once the
        /// visitor's lock is let go (`finishPending`).
        case pending(PendingCommit)
    }

    /// What an answer waits for once committed: the writes it rests on made durable, then
    /// the page it rendered for them kept and the others told.
    ///
    /// A class: as a struct it would take its whole size, several times over, in the
    /// frames of the async functions that hand it on.
    final class Finishing: Sendable {
        let announcement: Announcement
        let keeping: PageAnswerCache.Pending?

        init(announcement: Announcement, keeping: PageAnswerCache.Pending?) {
            self.announcement = announcement
            self.keeping = keeping
        }
    }

    /// The answer once `finishing` is done (nil: nothing left to do); a 503 if the writes
    /// it rests on could not be made durable. Then the request's hook events are delivered
    /// and the visitor's other windows told (and a page it rendered for the revision it
    /// wrote kept); if the writes fail, the store has undone them, and no one is told.
    nonisolated(nonsending) func finishCommit(_ response: HTTPResponse, _ finishing: Finishing?) async -> HTTPResponse {
        guard let finishing else { return response }
        // Most stores write before returning, and most requests rest on sessions written
        // long ago: nothing to wait for, nothing to allocate.
        if let awaited = awaitedWrites(finishing), await durability(of: awaited) != nil {
            return unsavedPage(finishing)
        }
        finished(finishing)
        return response
    }

    /// The writes the answer rests on that are not durable yet (nil: none).
    private func awaitedWrites(_ finishing: Finishing) -> [SessionID]? {
        guard store.commitsInGroups else { return nil }
        let ids = finishing.announcement.ids
        return ids.contains(where: store.awaitsCommit) ? ids : nil
    }

    /// The 503 page when the writes the answer rests on failed.
    private func unsavedPage(_ finishing: Finishing) -> HTTPResponse { unsavedPage(finishing.announcement.request) }

    /// Keeps the page the request rendered for its write, if any, and announces it.
    private func finished(_ finishing: Finishing) {
        if let page = finishing.keeping { keep(page) }
        announce(finishing.announcement)
    }

    /// Commits the attempt's state and gives its answer, each way of it a function of its own.
    nonisolated(nonsending) func settle(_ response: HTTPResponse, _ handle: VisitorHandle) async -> Settled {
        switch await commit(handle) {
        case .done(let cookie): committed(response, cookie: cookie, handle)
        case .changed(let session): await write(session, answering: response, handle)
        case .unchanged(let loaded): await confirm(loaded, answering: response, handle)
        case .conflict: .again
        case .failed(let error): .answer(sessionlessPage(error, for: handle.state.request), then: nil)
        }
    }

    /// The answer once nothing was left to write (and the cookie of a session just
    /// inserted, if any).
    func committed(_ response: HTTPResponse, cookie: String?, _ handle: VisitorHandle) -> Settled {
        var response = response
        if let cookie { response.headers.add("Set-Cookie", cookie) }
        // A request that never asked for the visitor (a JSON route, a file) rests on no
        // write and has nothing to tell.
        if handle.state.session == nil, handle.state.events.isEmpty { return .answer(response, then: nil) }
        return .answer(response, then: Finishing(announcement: Announcement(handle), keeping: nil))
    }

    /// Writes a changed session with compare-and-set: in the store's pipeline if it can
    /// (then its answer is awaited after the visitor's lock is let go).
    private nonisolated(nonsending) func write(
        _ session: Session, answering response: HTTPResponse, _ handle: VisitorHandle
    ) async -> Settled {
        if store.answersLater {
            let pending = PendingStoreAnswer<Session?>()
            // Told in the order the store answers (its pipeline's), which is the order of the
            // visitor's writes: the hooks and other windows hear of them in that order.
            let finishing = Finishing(announcement: Announcement(handle), keeping: nil)
            let asked = store.update(session) { [self] result in
                if case .success(.some) = result { finished(finishing) }
                pending.resolve(result)
            }
            if asked { return .pending(.write(pending, answering: response)) }
        }
        do {
            let written = try await storeCall { [store] () throws(SessionStoreError) in try store.update(session) }
            guard let written else { return .again }
            return answerAfter(written, answering: response, handle)
        } catch {
            return .answer(unsavedPage(handle.state.request), then: nil)
        }
    }

    /// How a write or check sent to the store's pipeline ends, once its answer is in.
    nonisolated(nonsending) func finishPending(_ pending: PendingCommit, _ handle: VisitorHandle) async -> Settled {
        switch pending {
        case .write(let answer, let response):
            switch await answer.result() {
            case .success(.some): return .answer(response, then: nil)  // told already, in order
            case .success(nil): return .again
            case .failure: return .answer(unsavedPage(handle.state.request), then: nil)
            }
        case .check(let answer, let response):
            switch await answer.result() {
            case .success(true):
                return .answer(response, then: Finishing(announcement: Announcement(handle), keeping: nil))
            case .success(false): return .again
            case .failure: return .answer(unsavedPage(handle.state.request), then: nil)
            }
        }
    }

    /// The answer once `written` is in the store, keeping the page rendered for it.
    private func answerAfter(_ written: Session, answering response: HTTPResponse, _ handle: VisitorHandle) -> Settled {
        let kept = keepAfterWrite(handle, written: written)
        return .answer(response, then: Finishing(announcement: Announcement(handle), keeping: kept))
    }

    /// Confirms that the cached copy the answer rests on is current: in the store's
    /// pipeline if it can (then its answer is awaited after the visitor's lock is let go).
    private nonisolated(nonsending) func confirm(
        _ loaded: Session, answering response: HTTPResponse, _ handle: VisitorHandle
    ) async -> Settled {
        if handle.state.user == nil, store.answersLater {
            let pending = PendingStoreAnswer<Bool>()
            if store.isCurrent(loaded, then: { pending.resolve($0) }) {
                return .pending(.check(pending, answering: response))
            }
        }
        let current: Bool
        do {
            current = try await storeCall { [store] () throws(SessionStoreError) in try store.isCurrent(loaded) }
        } catch {
            return .answer(unsavedPage(handle.state.request), then: nil)
        }
        guard current else { return .again }
        return .answer(response, then: Finishing(announcement: Announcement(handle), keeping: nil))
    }

    /// A store call: here when the store answers from memory or its own queue (memory,
    /// SQLite), on the blocking pool when it writes with a round trip (Redis).
    nonisolated(nonsending) func storeCall<Value: Sendable>(
        _ call: @escaping @Sendable () throws(SessionStoreError) -> Value
    )
        async throws(SessionStoreError) -> Value
    {
        guard !visitors.insertsAtOnce else { return try call() }
        do {
            return try await operations.blockingPool.run { () throws -> Value in try call() }
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw SessionStoreError("the server is busy")
        }
    }

    /// What a request tells others once its writes are durable: its hook events, and
    /// which visitor's other windows redraw their bar.
    struct Announcement: Sendable {
        let events: [HookEvent]
        let user: String?
        let redraw: SessionID?
        let sessionID: SessionID?
        let userRecordID: SessionID?
        /// The window the script's request came from (`TabServer-Window`): its own answer
        /// shows the change already, so it need not redraw its bar for the event.
        let window: String?
        /// For the error page, in the visitor's language, should the writes fail.
        let request: HTTPRequest

        init(_ handle: VisitorHandle) {
            request = handle.state.request
            events = handle.state.events
            user = handle.state.user
            // A badge the visitor cleared (a tab with `clearsBadgeOnSelect`) disappears in
            // their other windows too.
            let badgesChanged =
                handle.state.loaded != nil
                && handle.state.loaded?.state.badgeOverrides != handle.state.session?.state.badgeOverrides
            // The visitor's other windows (a signed-in user's on every device) redraw their bar.
            redraw =
                handle.state.arrangementChanged || badgesChanged
                ? handle.state.user.map({ SessionID.user($0) }) ?? handle.state.session?.id : nil
            sessionID = handle.state.session?.id
            userRecordID = handle.state.userRecord?.id
            window = handle.state.request.headers["tabserver-window"].flatMap(Self.windowID)
        }

        /// A window's id as the script makes it: 8 to 64 letters, digits, `-` or `_`.
        static func windowID(_ value: String) -> String? {
            let valid =
                (8...64).contains(value.utf8.count)
                && value.utf8.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "_")
                }
            return valid ? value : nil
        }

        /// The sessions the answer rests on.
        var ids: [SessionID] { [sessionID, userRecordID].compactMap { $0 } }
    }

    /// Waits until the writes of `ids` accepted so far are durable: nil then, or the
    /// failure (the store has undone them).
    private nonisolated(nonsending) func durability(of ids: [SessionID]) async -> SessionStoreError? {
        await withUnsafeContinuation { continuation in
            let waiting = store.whenDurable(ids) { error in continuation.resume(returning: error) }
            if !waiting { continuation.resume(returning: nil) }
        }
    }

    /// Has the hook events delivered and tells the other windows to redraw.
    private func announce(_ announcement: Announcement) {
        if !announcement.events.isEmpty, hooks.app.observes { hooks.deliverLater(announcement) }
        if let redraw = announcement.redraw {
            events.publish("bar", data: announcement.window.map { "{\"from\":\"\($0)\"}" } ?? "{}", to: redraw)
        }
    }

    /// The 503 page for a store that cannot confirm or keep a change.
    func unsavedPage(_ request: HTTPRequest) -> HTTPResponse { sessionlessPage(Self.unsaved, for: request) }

    /// The page of `failure` for `request`, with no bar and no cookie touched (the session
    /// itself is the problem).
    func sessionlessPage(_ failure: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        var bare = RequestState(app: self, request: request, model: tabs.current)
        return errorPage(failure, state: &bare, withSession: false)
    }

    /// The answer when the store cannot write.
    static let unsaved = HTTPError.unavailable("Your settings cannot be saved right now. Please try again in a moment.")
}
