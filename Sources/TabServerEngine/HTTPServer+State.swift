// SPDX-License-Identifier: Apache-2.0
extension HTTPServer {
    /// Where a server is in its life. It only moves forward:
    ///
    /// ```
    /// created → bound → running → draining → stopping → stopped
    ///             ╰─────────────────────────────╯  (loops that fail to start)
    /// ```
    ///
    /// `init` passes through `created` and `bound` and returns a `running` server (or
    /// throws, having closed what it opened: a configuration refused in `created`, a
    /// socket that cannot bind, loops that cannot start); `shutdown()` moves it to `draining`,
    /// `stopping` and `stopped`. Read it with `state`. It is the one record of the server's
    /// life: the loops read it too (without a lock) to refuse, close and exit.
    public enum State: UInt8, Sendable, Hashable, CustomStringConvertible {
        /// The configuration is checked; nothing is open yet.
        case created
        /// The listening socket is bound (its port known); no loop runs yet.
        case bound
        /// The event loops accept and serve.
        case running
        /// `shutdown()` is under way: new connections are refused, idle ones closed, and
        /// requests in progress finish with `Connection: close` until the grace period ends.
        case draining
        /// The grace period is over (or the loops could not all start): every loop closes
        /// what it holds and exits.
        case stopping
        /// Every loop has exited and the listening socket is closed. Final.
        case stopped

        /// Whether `next` may follow this state: one step forward, or `stopping` from
        /// `bound` when the loops cannot start.
        func canAdvance(to next: State) -> Bool {
            switch (self, next) {
            case (.created, .bound), (.bound, .running), (.running, .draining), (.draining, .stopping),
                (.stopping, .stopped):
                true
            case (.bound, .stopping): true
            default: false
            }
        }

        /// New connections are refused, idle ones closed, answers carry `Connection: close`.
        var isDraining: Bool { rawValue >= State.draining.rawValue }
        /// The loops close everything and exit.
        var isStopping: Bool { rawValue >= State.stopping.rawValue }

        public var description: String {
            switch self {
            case .created: "created"
            case .bound: "bound"
            case .running: "running"
            case .draining: "draining"
            case .stopping: "stopping"
            case .stopped: "stopped"
            }
        }
    }
}
