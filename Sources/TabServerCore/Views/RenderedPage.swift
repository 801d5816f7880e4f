// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A tab page's bytes as the renderer made them: rendered for this request, or filled in
/// from a rendering shared by every visitor who sees the same page (see `TokenizedPage`),
/// already in memory the engine sends as it is.
enum RenderedPage {
    /// Rendered for this request.
    case built([UInt8])
    /// Filled in from a shared rendering: one copy, made where the engine sends it from.
    case shared(SharedBytes)

    /// The bytes as an array (copies a shared page: for gzip, whose packing costs far more).
    var bytes: [UInt8] {
        switch self {
        case .built(let bytes): bytes
        case .shared(let shared): shared.array
        }
    }

    /// The bytes as a response body.
    var body: HTTPBody {
        switch self {
        case .built(let bytes): .bytes(bytes)
        case .shared(let shared): .shared(shared)
        }
    }
}
