// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// How often each tab was tapped since the server started (counted by the `didSelect`
/// hook, once per committed tap), shown on the Settings tab.
public final class TabVisits: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// No taps counted yet.
    public init() {}

    /// Counts one tap of the tab.
    public func count(_ tabID: String) { counts.withLock { $0[tabID, default: 0] += 1 } }

    /// The taps of the tab so far.
    public func visits(of tabID: String) -> Int { counts.withLock { $0[tabID, default: 0] } }
}
