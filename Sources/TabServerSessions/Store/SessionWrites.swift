// SPDX-License-Identifier: Apache-2.0
/// How a writer meets another request's write to the same session.
package enum SessionWrites {
    /// At most this many attempts when another request wrote the same session meanwhile
    /// (`update` answered nil): the request path and the app's own writes stop there.
    package static let maxAttempts = 16
}
