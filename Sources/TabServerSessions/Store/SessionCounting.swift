// SPDX-License-Identifier: Apache-2.0

/// A session store that knows how many sessions it holds without a scan; `/metrics`
/// shows the number as `tabserver_sessions`. The memory and SQLite stores count for
/// free; a store that would have to scan (Redis) does not adopt it.
public protocol SessionCounting: SessionStore {
    /// Sessions held now (users' records included).
    var sessionCount: Int { get }
}
