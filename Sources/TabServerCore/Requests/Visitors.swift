// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerThreads
import TabServerWeb

/// Who a request's visitor is and how their session is reached: the proxy's word on who
/// is signed in, the form tokens of visitors without a session, each client's budget of
/// new sessions, one request at a time per visitor, what the store answers at once, and
/// the clock.
struct Visitors: Sendable {
    /// Who the authenticating proxy says the visitor is (`--identity-header`).
    let identity: IdentityReader
    /// Signs the form tokens of visitors with no stored session (`--csrf-secret`).
    let formTokens: FormTokenSigner
    /// Each client's budget of new sessions (nil: none, `newSessionRate` 0).
    let newSessions: ClientBudget?
    /// New sessions refused by the budget: counted, and logged once per episode.
    let newSessionRefusals = ErrorEpisode()
    /// One visitor's requests at a time in this process (see `VisitorLocks`).
    let locks = VisitorLocks()
    /// `store.readsEverythingAtOnce`, asked once (the store never changes its answer).
    let readsEverythingAtOnce: Bool
    /// `store.insertsAtOnce`, asked once.
    let insertsAtOnce: Bool
    /// Seconds since 1970.
    let clock: @Sendable () -> Int64
}
