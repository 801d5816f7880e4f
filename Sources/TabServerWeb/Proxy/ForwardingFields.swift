// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The forwarding headers of a request (`Forwarded` and the `X-Forwarded-*` family),
/// gathered in one pass over its head: most requests carry none, and five look-ups a
/// request showed in profiles of the page path.
struct ForwardingFields {
    var forwarded: [String] = []
    var forwardedFor: [String] = []
    var forwardedProto: [String] = []
    var forwardedHost: [String] = []
    var forwardedPrefix: [String] = []

    /// Whether the request carries none of these fields.
    var isEmpty: Bool {
        forwarded.isEmpty && forwardedFor.isEmpty && forwardedProto.isEmpty && forwardedHost.isEmpty
            && forwardedPrefix.isEmpty
    }

    init(_ headers: HTTPHeaders) {
        headers.forEachField { name, value in
            switch name.utf8.count {
            case 9 where HTTPHeaders.namesEqual(name, "forwarded"): forwarded.append(value)
            case 15 where HTTPHeaders.namesEqual(name, "x-forwarded-for"): forwardedFor.append(value)
            case 16 where HTTPHeaders.namesEqual(name, "x-forwarded-host"): forwardedHost.append(value)
            case 17 where HTTPHeaders.namesEqual(name, "x-forwarded-proto"): forwardedProto.append(value)
            case 18 where HTTPHeaders.namesEqual(name, "x-forwarded-prefix"): forwardedPrefix.append(value)
            default: break
            }
        }
    }
}
