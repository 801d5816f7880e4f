// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions

/// A tab page's bytes as the renderer made them: rendered for this request, or filled in
/// from a rendering shared by every visitor who sees the same page (see `TokenizedPage`),
/// already in memory the engine sends as it is.
package enum RenderedPage {
    /// Rendered for this request.
    case built([UInt8])
    /// Filled in from `template`, the rendering shared by every visitor who sees this page,
    /// with the visitor's `token`: one copy, made where the engine sends it from.
    case filled(SharedBytes, template: TokenizedPage, token: SessionID)

    /// The bytes as an array (copies a shared page: for gzip, whose packing costs far more).
    package var bytes: [UInt8] {
        switch self {
        case .built(let bytes): bytes
        case .filled(let shared, _, _): shared.array
        }
    }

    /// The bytes as a response body.
    package var body: HTTPBody {
        switch self {
        case .built(let bytes): .bytes(bytes)
        case .filled(let shared, _, _): .shared(shared)
        }
    }
}
