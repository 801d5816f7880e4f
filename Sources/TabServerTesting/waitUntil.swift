// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// Checks `condition` every `interval` until it holds or `timeout` has passed; says
/// whether it held. The one polling loop the test helpers share (a process started or
/// stopped, a port answering, a store ready again).
///
/// ```swift
/// #expect(waitUntil(.seconds(10)) { store.checkReady() })
/// ```
@discardableResult
public func waitUntil(
    _ timeout: Duration, every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    let pause = interval.components
    let micros = UInt32(min(Int64(pause.seconds) * 1_000_000 + pause.attoseconds / 1_000_000_000_000, 1_000_000))
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
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
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
}
