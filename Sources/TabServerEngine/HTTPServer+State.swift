// SPDX-License-Identifier: Apache-2.0
extension HTTPServer {
    /// Where a server is in its life. It only moves forward:
    ///
    /// ```
    /// created → bound → running → draining → stopped
    ///             ╰────────────────────────────╯  (loops that fail to start)
    /// ```
    ///
    /// `init` passes through `created` and `bound` and returns a `running` server (or
    /// throws, having closed what it opened: a configuration refused in `created`, a
    /// socket that cannot bind, loops that cannot start); `shutdown()` moves it to `draining` and then
    /// `stopped`. Read it with `state`.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// The configuration is checked; nothing is open yet.
        case created
        /// The listening socket is bound (its port known); no loop runs yet.
        case bound
        /// The event loops accept and serve.
        case running
        /// `shutdown()` is under way: new connections are refused, idle ones closed, and
        /// requests in progress finish with `Connection: close` until the grace period ends.
        case draining
        /// Every loop has exited and the listening socket is closed. Final.
        case stopped

        /// Whether `next` may follow this state: one step forward, or `stopped` from
        /// `bound` when the loops cannot start.
        func canAdvance(to next: State) -> Bool {
            switch (self, next) {
            case (.created, .bound), (.bound, .running), (.running, .draining), (.draining, .stopped): true
            case (.bound, .stopped): true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .created: "created"
            case .bound: "bound"
            case .running: "running"
            case .draining: "draining"
            case .stopped: "stopped"
            }
        }
    }
}
