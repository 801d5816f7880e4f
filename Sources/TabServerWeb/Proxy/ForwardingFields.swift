// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The forwarding headers of a request (`Forwarded` and the `X-Forwarded-*` family),
/// gathered in one pass over its head: most requests carry none, and five look-ups would
/// each walk every field of every request on the page path.
///
/// One list for every kind, not a list a kind: for a request without any, destroying five
/// empty lists would cost more than the pass.
struct ForwardingFields {
    /// Which header a value came from.
    enum Kind: UInt8 {
        case forwarded, forwardedFor, forwardedProto, forwardedHost, forwardedPrefix
    }

    /// The values found, in the order of the head.
    private var found: [(kind: Kind, value: String)] = []

    /// Whether the request carries none of these fields.
    var isEmpty: Bool { found.isEmpty }

    /// `Forwarded` values, in order.
    var forwarded: [String] { values(.forwarded) }
    /// `X-Forwarded-For` values, in order.
    var forwardedFor: [String] { values(.forwardedFor) }
    /// `X-Forwarded-Proto` values, in order.
    var forwardedProto: [String] { values(.forwardedProto) }
    /// `X-Forwarded-Host` values, in order.
    var forwardedHost: [String] { values(.forwardedHost) }
    /// `X-Forwarded-Prefix` values, in order.
    var forwardedPrefix: [String] { values(.forwardedPrefix) }

    init(_ headers: HTTPHeaders) {
        headers.forEachField { name, value in
            switch name.utf8.count {
            case 9 where HTTPHeaders.namesEqual(name, "forwarded"): found.append((.forwarded, value))
            case 15 where HTTPHeaders.namesEqual(name, "x-forwarded-for"): found.append((.forwardedFor, value))
            case 16 where HTTPHeaders.namesEqual(name, "x-forwarded-host"): found.append((.forwardedHost, value))
            case 17 where HTTPHeaders.namesEqual(name, "x-forwarded-proto"): found.append((.forwardedProto, value))
            case 18 where HTTPHeaders.namesEqual(name, "x-forwarded-prefix"): found.append((.forwardedPrefix, value))
            default: break
            }
        }
    }

    /// The values of `kind`, in order.
    private func values(_ kind: Kind) -> [String] {
        found.compactMap { $0.kind == kind ? $0.value : nil }
    }
}
