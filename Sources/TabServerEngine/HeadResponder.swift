// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP1

/// A responder that answers from a request's head alone. The engine asks it as soon as a
/// head is parsed and never reads a body for it: a request that has one is answered,
/// then the connection closes (the body is discarded while it lingers), so a client
/// cannot make this listener hold or read bytes it has no use for. The plain listener
/// that redirects to HTTPS serves one (`HTTPSRedirect`); a server whose responder is not
/// one reads every request whole.
protocol HeadResponder: HTTPResponder {
    /// The answer to the request `head` begins, and whether the connection closes after
    /// it even when the client would keep it (a malformed request).
    func answer(toHead head: RequestHead) -> (response: HTTPResponse, close: Bool)
}
