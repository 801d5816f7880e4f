// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A response body that stays open and is written as things happen: a Server-Sent
/// Events stream. The app writes from any thread; the engine sends what was written and
/// tells the app (`onClose`) when the client went away, the server drains, or the client
/// reads so slowly that more than `bufferLimit` bytes wait.
///
/// ```swift
/// let stream = ResponseStream()
/// stream.onClose { hub.unsubscribe(stream) }
/// stream.write(Array("event: badge\ndata: {}\n\n".utf8))
/// return HTTPResponse(status: .ok, headers: sseHeaders, body: .stream(stream))
/// ```
public final class ResponseStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var closed = false
        var wake: (@Sendable () -> Void)?
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// Bytes that may wait unsent before the stream is closed as too slow.
    public let bufferLimit: Int

    /// An open stream.
    public init(bufferLimit: Int = 64 * 1024) {
        self.bufferLimit = bufferLimit
    }

    /// Queues bytes for the client. Returns false (and writes nothing) once the stream is
    /// closed; closes it when the client has fallen more than `bufferLimit` behind.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, wake, handlers) = state.withLock {
            state -> (Bool, (@Sendable () -> Void)?, [@Sendable () -> Void]) in
            guard !state.closed else { return (false, nil, []) }
            if state.pending.count + bytes.count > bufferLimit {
                state.closed = true
                let handlers = state.closeHandlers
                state.closeHandlers = []
                return (false, state.wake, handlers)
            }
            state.pending.append(contentsOf: bytes)
            return (true, state.wake, [])
        }
        wake?()
        for handler in handlers { handler() }
        return accepted
    }

    /// Ends the stream: the engine closes the connection once what is pending is sent.
    public func close() {
        let (wake, handlers) = state.withLock { state -> ((@Sendable () -> Void)?, [@Sendable () -> Void]) in
            guard !state.closed else { return (nil, []) }
            state.closed = true
            let handlers = state.closeHandlers
            state.closeHandlers = []
            return (state.wake, handlers)
        }
        wake?()
        for handler in handlers { handler() }
    }

    /// Whether the stream has ended (closed by the app, the client or the engine).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `handler` once when the stream ends, whoever ends it (at once if it already has).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: The engine's side

    /// Called by the engine when it starts sending the stream: `wake` is called (from
    /// any thread) whenever bytes were written or the stream closed.
    public func attach(wake: @escaping @Sendable () -> Void) {
        let pending = state.withLock { state -> Bool in
            state.wake = wake
            return !state.pending.isEmpty || state.closed
        }
        if pending { wake() }
    }

    /// Takes what is waiting to be sent, and whether the stream has ended.
    public func take() -> (bytes: [UInt8], closed: Bool) {
        state.withLock { state in
            let bytes = state.pending
            state.pending = []
            return (bytes, state.closed)
        }
    }
}

extension ResponseStream: Hashable {
    public static func == (lhs: ResponseStream, rhs: ResponseStream) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
