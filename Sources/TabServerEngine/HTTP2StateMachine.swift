// SPDX-License-Identifier: Apache-2.0

/// What the engine decides for an HTTP/2 connection, as a state machine without I/O:
/// nghttp2 frames the streams (HPACK, flow control, stream states of RFC 9113), and this
/// type keeps the rest: since when the connection is idle or its socket blocked, whether
/// a drain's GOAWAY went out, and what the sweep must do with each stream at a given
/// time. The loop tells it what happened and carries out the actions it returns; the
/// tests drive it with times alone (`HTTP2StateMachineTests`).
struct HTTP2StateMachine {
    /// The limits it enforces, in nanoseconds.
    struct Limits {
        var headerTimeout: UInt64
        var bodyTimeout: UInt64
        var idleTimeout: UInt64
        var sendTimeout: UInt64
    }

    /// One open stream as the sweep sees it.
    struct Stream {
        enum Phase: Equatable {
            /// Its request is still arriving (since `opened`).
            case reading
            /// The responder answers later, asked at `since`.
            case waiting(since: UInt64)
            /// Its answer is being sent: `deadline` for what is queued (nil: nothing
            /// queued), `unread` bytes nghttp2 has not taken yet, `appStream` when an app
            /// writes it as it goes.
            case sending(deadline: UInt64?, unread: Int, appStream: Bool)
        }

        let id: Int32
        let opened: UInt64
        let phase: Phase
    }

    /// What the sweep asks the loop to do.
    enum Action: Equatable {
        /// Close the connection now (a socket that takes nothing, a window kept shut).
        case close
        /// Answer the stream 408: its request arrived too slowly.
        case timeOut(Int32)
        /// Give up the stream's answer (it never came) and reset it.
        case abandon(Int32)
        /// Everything is sent but the client never ended its side: let the stream go.
        case release(Int32)
        /// Everything queued is sent: the stream's send deadline is cleared.
        case clearDeadline(Int32)
        /// Send the drain's GOAWAY.
        case goAway
        /// End an app's stream (a drain ends it, as over HTTP/1.1).
        case endStream(Int32)
        /// Nothing open and idle too long (or draining): end the session.
        case terminate
    }

    /// Since when no stream is open (the idle deadline runs from it).
    private(set) var idleSince: UInt64
    /// Since when the socket has refused the bytes nghttp2 gave; nil while it takes them.
    private(set) var blockedSince: UInt64?
    /// The drain's GOAWAY has been queued.
    private(set) var goingAway = false

    init(now: UInt64) {
        idleSince = now
    }

    /// The socket refused bytes at `now` (the first refusal starts the clock).
    mutating func blocked(now: UInt64) {
        if blockedSince == nil { blockedSince = now }
    }

    /// The socket took everything queued.
    mutating func drained() {
        blockedSince = nil
    }

    /// A stream closed at `now`, leaving `open` streams.
    mutating func streamClosed(now: UInt64, open: Int) {
        if open == 0 { idleSince = now }
    }

    /// The sweep at `now`: what to do with the connection and `streams`, its open ones.
    /// `served`: whether a request was answered on it (before the first, an idle
    /// connection gets only the header deadline).
    mutating func sweep(now: UInt64, streams: [Stream], served: Bool, draining: Bool, limits: Limits) -> [Action] {
        if let blockedSince, now &- blockedSince > limits.sendTimeout { return [.close] }
        var actions: [Action] = []
        for stream in streams {
            switch stream.phase {
            case .reading:
                if now &- stream.opened > limits.headerTimeout + limits.bodyTimeout {
                    actions.append(.timeOut(stream.id))
                }
            case .waiting(let since):
                if now &- since > limits.sendTimeout { actions.append(.abandon(stream.id)) }
            case .sending(let deadline?, let unread, let appStream) where now > deadline:
                // Bytes nghttp2 could not send: the client keeps its window shut.
                if unread > 0 { return [.close] }
                actions.append(.clearDeadline(stream.id))
                // An app's stream with everything sent waits for the app.
                if !appStream { actions.append(.release(stream.id)) }
            case .sending:
                break
            }
        }
        if draining && !goingAway {
            goingAway = true
            actions.append(.goAway)
            for stream in streams {
                if case .sending(_, _, true) = stream.phase { actions.append(.endStream(stream.id)) }
            }
        }
        if streams.isEmpty {
            let limit = served ? limits.idleTimeout : min(limits.idleTimeout, limits.headerTimeout)
            if draining || now &- idleSince > limit { actions.append(.terminate) }
        }
        return actions
    }
}
