// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

// The fuzz targets compile these files and TabServerThreads' into one module.
#if canImport(TabServerThreads)
    import TabServerThreads
#endif

/// A response that is known later: the app answers once something it waits for is done
/// (a group of session writes reaching the disk), from any thread, while the engine
/// thread that took the request serves other connections meanwhile.
///
/// ```swift
/// let deferred = DeferredResponse()
/// store.whenDurable(ids) { error in deferred.complete(error == nil ? page : unavailable) }
/// return .later(deferred)
/// ```
public final class DeferredResponse: Sendable {
    private struct State {
        var response: HTTPResponse?
        var wake: (@Sendable () -> Void)?
        var taken = false
        /// Made only for a caller that blocks (`wait`): the engine never does.
        var waiter: DispatchSemaphore?
    }

    private let state = Mutex(State())

    /// A response still to come.
    public init() {}

    /// Gives the response; only the first call counts.
    public func complete(_ response: HTTPResponse) {
        let wakeAndWaiter = state.withLock { state -> ((@Sendable () -> Void)?, DispatchSemaphore?)? in
            guard state.response == nil, !state.taken else { return nil }
            state.response = response
            // Called once, then let go: a wake that captures this response (`map`,
            // chaining one later answer to another) would otherwise keep it alive forever.
            defer { state.wake = nil }
            return (state.wake, state.waiter)
        }
        guard let (wake, waiter) = wakeAndWaiter else { return }
        waiter?.signal()
        wake?()
    }

    /// Waits for the response (an in-process caller with no event loop: tests), for at
    /// most `timeout`: then the answer is a 503 saying so (and a response that comes after
    /// it is dropped). The engine never waits: it attaches (`attach(wake:)`).
    public func wait(timeout: Duration = DeferredResponse.longestWait) -> HTTPResponse {
        let waiter = state.withLock { state -> DispatchSemaphore? in
            guard state.response == nil else { return nil }
            if state.waiter == nil { state.waiter = DispatchSemaphore(value: 0) }
            return state.waiter
        }
        if let waiter {
            let deadline = DispatchTime.after(timeout)
            if waiter.wait(timeout: deadline) == .timedOut {
                complete(Self.tooLate)
            } else {
                waiter.signal()  // another waiter returns at once
            }
        }
        return state.withLock { $0.response ?? HTTPResponse(status: .internalServerError) }
    }

    /// How long `wait()` waits by default: longer than any bound the server sets on the
    /// work it waits for (a store call, a commit, an app's slow page has its own).
    public static let longestWait: Duration = .seconds(60)

    /// The answer of a wait that timed out.
    static var tooLate: HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        headers.add("Retry-After", "1")
        return HTTPResponse(
            status: .serviceUnavailable, headers: headers, body: .bytes(Array("The answer took too long.\n".utf8)))
    }

    // MARK: The engine's side

    /// Called by the engine while the connection waits: `wake` is called (from any
    /// thread, at once if the response is already there) when it can be taken.
    public func attach(wake: @escaping @Sendable () -> Void) {
        let ready = state.withLock { state -> Bool in
            // Kept only until the response comes (see `complete`).
            if state.response == nil { state.wake = wake }
            return state.response != nil
        }
        if ready { wake() }
    }

    /// The response once it is there (only once).
    public func take() -> HTTPResponse? {
        state.withLock { state in
            guard !state.taken, let response = state.response else { return nil }
            state.taken = true
            return response
        }
    }
}
