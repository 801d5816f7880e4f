// SPDX-License-Identifier: Apache-2.0
import Dispatch

extension DispatchTime {
    /// Now plus `duration` (negative durations count as zero): the deadline of a bounded wait.
    package static func after(_ duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        let nanos = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        return .now() + .nanoseconds(Int(nanos))
    }
}
