// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// Checks `condition` every `interval` until it holds or `timeout` has been spent waiting;
/// says whether it held. The one polling loop the test helpers share (a process started or
/// stopped, a port answering, a store ready again).
///
/// The bound guards against a hang; a loaded machine cannot use it up. Each round between
/// two checks counts for at most `WaitBudget.longestRound`, so a pause of the waiting
/// thread itself (a full test run holding every thread for a minute) leaves the other side
/// its chance to make the condition true before the wait gives up.
///
/// ```swift
/// #expect(waitUntil(.seconds(10)) { store.checkReady() })
/// ```
@discardableResult
public func waitUntil(
    _ timeout: Duration, every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) rethrows -> Bool {
    var budget = WaitBudget(timeout)
    let pause = interval.components
    let micros = UInt32(min(Int64(pause.seconds) * 1_000_000 + pause.attoseconds / 1_000_000_000_000, 1_000_000))
    while true {
        if try condition() { return true }
        if budget.isSpent() { return false }
        usleep(micros)
    }
}

/// `waitUntil` for a condition that awaits (a request through the test client).
///
/// ```swift
/// #expect(await waitUntil(.seconds(3)) { await client.get("/readyz").status == 200 })
/// ```
@discardableResult
public func waitUntil(
    _ timeout: Duration, every interval: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    var budget = WaitBudget(timeout)
    while true {
        if try await condition() { return true }
        if budget.isSpent() { return false }
        try? await Task.sleep(for: interval)
    }
}
