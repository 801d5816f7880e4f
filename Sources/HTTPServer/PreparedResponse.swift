import CMicroHTTPD
import HTTPTypes

/// A response built once inside libmicrohttpd and queued again and again (a static file).
/// Saves creating the engine's response object and copying its headers per request,
/// which measured as a tenth of the cost of serving a small file.
///
/// `@unchecked Sendable` is safe: the MHD response is complete before `init` returns and
/// never modified afterwards; libmicrohttpd reference-counts it under its own lock when
/// several connections queue it at once, and `deinit` drops only this object's reference.
final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Builds the engine's response for `response`; nil if libmicrohttpd refuses a header.
    init?(_ response: HTTPResponse) {
        guard let pointer = makeEngineResponse(response.body) else { return nil }
        for field in response.headers where MHD_add_response_header(pointer, field.name, field.value) == .NO {
            MHD_destroy_response(pointer)
            return nil
        }
        self.pointer = pointer
    }

    deinit { MHD_destroy_response(pointer) }
}

/// A new libmicrohttpd response carrying `body` (headers not yet added).
func makeEngineResponse(_ body: HTTPBody) -> OpaquePointer? {
    switch body {
    case .empty:
        return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
    case .bytes(let bytes):
        return bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .shared(let shared):
        // The response keeps the bytes alive; `engineReleaseShared` balances this retain.
        return MHD_create_response_from_buffer_with_free_callback_cls(
            shared.count, UnsafeMutableRawPointer(mutating: shared.baseAddress), engineReleaseShared,
            Unmanaged.passRetained(shared).toOpaque())
    }
}

extension PreparedResponse: Hashable {
    static func == (lhs: PreparedResponse, rhs: PreparedResponse) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
