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
    /// The connection or the exchange failed.
    case failed(reason: String)
    /// The whole exchange (the name's lookup, the connection, the handshake, the request,
    /// the answer) did not finish within the message's deadline: its host is backed off.
    case timedOut(reason: String)
    /// Not sent: its host timed out lately and is backed off until then (see `PushSender`).
    case backedOff(host: String)
}
