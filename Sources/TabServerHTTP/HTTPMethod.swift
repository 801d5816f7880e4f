// SPDX-License-Identifier: Apache-2.0
/// An HTTP request method. Known methods are cases so routing compares integers, not strings.
public enum HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    case get, head, post, put, delete, patch, options
    case other(String)

    /// Parses a method token as sent on the request line (case-sensitive, per RFC 9110).
    public init(_ token: String) {
        switch token {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "DELETE": self = .delete
        case "PATCH": self = .patch
        case "OPTIONS": self = .options
        default: self = .other(token)
        }
    }

    /// The token as it appears on the request line.
    public var description: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case .patch: "PATCH"
        case .options: "OPTIONS"
        case .other(let token): token
        }
    }

    /// Whether requests with this method may carry a body the server reads.
    public var allowsBody: Bool {
        switch self {
        case .post, .put, .patch, .delete: true
        default: false
        }
    }
}
