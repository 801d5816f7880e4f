// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A request the engine answers itself, before the responder sees it: the status, a
/// message for the client, and whether the connection must close afterwards (always,
/// when the framing of what follows cannot be trusted).
package struct EngineRejection: Error {
    package let status: HTTPStatus
    package let message: String
    /// The request line's method and target, when they could be read (for the log).
    package var method: String?
    package var target: String?

    package init(status: HTTPStatus, message: String) {
        self.status = status
        self.message = message
    }
}
