// SPDX-License-Identifier: Apache-2.0

/// The time a wait has spent, counted round by round with each round capped.
struct WaitBudget {
    /// The most one round between two checks counts for: a stall longer than this is the
    /// machine's load, not the condition failing to come true.
    static let longestRound: Duration = .seconds(2)

    private let timeout: Duration
    private var spent: Duration = .zero
    private var lastCheck = ContinuousClock.now

    init(_ timeout: Duration) { self.timeout = timeout }

    /// Adds the round since the last check; true once the timeout is used up.
    mutating func isSpent() -> Bool {
        let now = ContinuousClock.now
        spent += min(now - lastCheck, Self.longestRound)
        lastCheck = now
        return spent >= timeout
    }
}
