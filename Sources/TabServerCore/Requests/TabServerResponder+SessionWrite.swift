// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// The session's write: a new session inserted when it holds something to remember (and
/// the client's budget allows), a changed one written with compare-and-set, a signed-in
/// user's record first; what `settle` makes of the result is in `TabServerResponder+Commit`.
extension TabServerResponder {
    /// How a commit ends.
    enum CommitResult: Sendable {
        case done(cookie: String?)
        /// Nothing to write; the answer stands if `loaded` is still the stored session.
        case unchanged(Session)
        /// To write with compare-and-set (the caller does, here or in the store's pipeline).
        case changed(Session)
        case conflict
        case failed(HTTPError)
    }

    /// Writes the session back if this request changed it: a new session is inserted and
    /// its cookie set only when it holds something to remember (a cookieless visitor in
    /// the default state costs no row and gets no cookie); a changed one is written only if
    /// nobody wrote it meanwhile (otherwise the whole request is run again on the fresh
    /// session); an unchanged one is confirmed current (one cheap check in a shared store,
    /// none in the others).
    nonisolated(nonsending) func commit(_ handle: VisitorHandle) async -> CommitResult {
        guard let final = handle.state.session else { return .done(cookie: nil) }
        // Signed in: the user's record first (another browser of theirs, on another
        // instance, may have written it: then run the request again on the fresh one).
        if let record = handle.state.userPart(of: final) {
            switch await commitUser(record, stored: handle.state.storedUser) {
            case .done: break
            case let other: return other
            }
        }
        switch commitStep(final, &handle.state) {
        case .result(let result): return result
        case .insert(let session, let cookie): return await insert(session, cookie: cookie)
        case .update(let session): return await update(session)
        }
    }

    /// Inserts a new session; its cookie is set once it is in.
    private nonisolated(nonsending) func insert(_ session: Session, cookie: String) async -> CommitResult {
        do {
            try await storeCall { [store] () throws(SessionStoreError) in try store.insert(session) }
            return .done(cookie: cookie)
        } catch {
            return .failed(Self.unsaved)
        }
    }

    /// Writes a signed-in visitor's browser session with compare-and-set.
    private nonisolated(nonsending) func update(_ session: Session) async -> CommitResult {
        do {
            let written = try await storeCall { [store] () throws(SessionStoreError) in try store.update(session) }
            return written == nil ? .conflict : .done(cookie: nil)
        } catch {
            return .failed(Self.unsaved)
        }
    }

    /// What the commit of a browser session does, decided without waiting.
    private enum CommitStep {
        case result(CommitResult)
        /// A new session to insert, and its cookie once it is.
        case insert(Session, cookie: String)
        /// A signed-in visitor's browser session to write with compare-and-set.
        case update(Session)
    }

    /// The commit of `final`'s browser part. `state` is `inout` only to be read in place:
    /// a struct held by a class and passed by value would be copied whole.
    private func commitStep(_ final: Session, _ state: inout RequestState) -> CommitStep {
        var session = state.browserPart(of: final)
        if state.isNewSession {
            guard !session.isDefault(for: state.controller) else { return .result(.done(cookie: nil)) }
            if let refusal = refuseNewSession(state) { return .result(refusal) }
            // Its pages carried the signed token shared by cookieless pages; from now on
            // its forms carry a random token of its own, checked against the stored one.
            session.csrfToken = state.ownToken ?? .generate()
            return .insert(session, cookie: sessionCookie(session, request: state.request))
        }
        guard let loaded = state.storedBrowser ?? state.loaded else { return .result(.done(cookie: nil)) }
        // Nothing to write: the answer stands if the session it rests on was current
        // (a shared store's cached copy may not have been; then run it again).
        if session == loaded { return .result(.unchanged(loaded)) }
        session.revision = loaded.revision
        // Anonymous: one record, so the write may go on in the store's pipeline.
        if state.user == nil { return .result(.changed(session)) }
        return .update(session)
    }

    /// Writes a signed-in user's record if this request changed it (a new one only when it
    /// holds a choice), with compare-and-set like a session; an unchanged one is confirmed
    /// current. Two browsers creating the same user's record at once: the loser runs again.
    private nonisolated(nonsending) func commitUser(_ record: Session, stored: Session?) async -> CommitResult {
        do throws(SessionStoreError) {
            guard let stored else {
                guard record.hasOwnChoices else { return .done(cookie: nil) }
                do {
                    try await storeCall { [store] () throws(SessionStoreError) in try store.insert(record) }
                } catch {
                    // Most likely inserted meanwhile by another instance; a store that is
                    // down fails the next attempt's load.
                    return .conflict
                }
                return .done(cookie: nil)
            }
            if record == stored {
                let current = try await storeCall { [store] () throws(SessionStoreError) in try store.isCurrent(stored)
                }
                return current ? .done(cookie: nil) : .conflict
            }
            var changed = record
            changed.revision = stored.revision
            let update = changed
            let written = try await storeCall { [store] () throws(SessionStoreError) in try store.update(update) }
            return written == nil ? .conflict : .done(cookie: nil)
        } catch {
            return .failed(Self.unsaved)
        }
    }

    /// Whether the budget keeps this request's new session from being stored: then a page
    /// is answered without one (no cookie), and a post, whose change would be lost, is
    /// answered 429 with `Retry-After`. Nil when it may be stored (its unit is taken).
    private func refuseNewSession(_ state: borrowing RequestState) -> CommitResult? {
        guard let newSessions = visitors.newSessions else { return nil }
        let client = state.clientKey
        var retryAfter = 1
        if !state.newSessionRefused {
            guard case .refused(let seconds) = newSessions.take(client) else { return nil }
            retryAfter = seconds
        }
        if let count = visitors.newSessionRefusals.record() {
            log?.write(
                "new sessions refused for \(client) (past \(newSessions.burst) at once and \(Int(newSessions.rate))/s; \(count) since the last line): served without a session",
                level: .warn)
        }
        let method = state.request.method
        guard method != .get, method != .head else { return .done(cookie: nil) }
        return .failed(
            .tooManyRequests(
                "Too many new visitors come from your network right now, so this could not be saved. Please try again in a moment.",
                retryAfter: retryAfter))
    }
}
