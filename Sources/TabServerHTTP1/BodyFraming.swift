// SPDX-License-Identifier: Apache-2.0

/// How the body of a request is delimited (RFC 9112 §6.3).
package enum BodyFraming: Equatable, Sendable {
    case none
    case length(Int)
    case chunked
}
