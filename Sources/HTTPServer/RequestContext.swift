import HTTPTypes

/// What the engine keeps about one request between libmicrohttpd's calls: the head read
/// on the first call, form fields as body chunks arrive, and the result for the access log.
/// Retained into MHD's per-request pointer on the first call and released in the
/// request-completed callback (see `HTTPServer+Callbacks.swift`).
final class RequestContext {
    let method: HTTPMethod
    let path: String
    let version: String
    let startNanos: UInt64
    var headers = HTTPHeaders()
    var contentLengthCount = 0
    var hasTransferEncoding = false
    /// MHD's post processor for a form body (nil when no body is expected).
    var postProcessor: OpaquePointer?
    var bodyBytes = 0
    var fieldNames: [String] = []
    var fieldValues: [[UInt8]] = []
    /// Set when the request is rejected before its body is read (400, 413, 415).
    var rejection: HTTPResponse?
    var rejectionQueued = false
    var status = 0
    var bytesSent = 0
    var remoteAddress = "-"
    var logNote: String?

    init(method: HTTPMethod, path: String, version: String, startNanos: UInt64) {
        self.method = method
        self.path = path
        self.version = version
        self.startNanos = startNanos
    }

    func appendField(name: String, chunk: UnsafeRawBufferPointer, offset: UInt64) {
        if offset > 0, let last = fieldNames.last, last == name {
            fieldValues[fieldValues.count - 1].append(contentsOf: chunk)
        } else {
            fieldNames.append(name)
            fieldValues.append(Array(chunk))
        }
    }

    var formFields: [(name: String, value: String)] {
        zip(fieldNames, fieldValues).map { ($0, String(decoding: $1, as: UTF8.self)) }
    }
}

/// Collects key/value pairs from `MHD_get_connection_values_n` (headers or query).
final class PairCollector {
    var pairs: [(name: String, value: String)] = []
    var contentLengthCount = 0
    var hasTransferEncoding = false
}
