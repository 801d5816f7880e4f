// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Who hears a relay's messages, given by `start` (a relay's subscriber is made before).
final class RedisEventRelayListener: Sendable {
    let deliver = Mutex<(@Sendable ([UInt8]) -> Void)?>(nil)
}
