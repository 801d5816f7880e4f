// SPDX-License-Identifier: Apache-2.0
/// What became of one push message.
public enum PushDeliveryResult: Sendable, Equatable {
    /// The push service took it (2xx: 201 Created as a rule).
    case delivered(status: Int)
    /// The subscription is no more (404 Not Found, 410 Gone): it is removed.
    case gone(status: Int)
    /// The push service answered with another status (a 413, 429 or 5xx): kept, not retried.
    case rejected(status: Int)
    /// Not sent: the endpoint's name resolves to an address the server must not post to.
    case refused(reason: String)
    /// Sent or not, no answer in time, or the connection failed.
    case failed(reason: String)
}
