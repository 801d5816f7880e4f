// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

extension HTTPRequest {
    /// The form field `name`, or a 400 naming it when it is missing or empty.
    public func requiredField(_ name: String) throws(HTTPError) -> String {
        guard let value = formValue(name), !value.isEmpty else {
            throw .badRequest("The form field '\(name)' is missing.", field: name)
        }
        return value
    }

    /// The form field `name` as an integer, or a 400 naming it.
    public func requiredIntField(_ name: String) throws(HTTPError) -> Int {
        let text = try requiredField(name)
        guard let value = Int(text) else {
            throw .badRequest("The form field '\(name)' must be a whole number, not '\(text.prefix(40))'.", field: name)
        }
        return value
    }

    /// Whether the client accepts a gzip body (`Accept-Encoding` lists gzip with q > 0).
    /// An explicit `gzip` entry wins over `*` wherever it appears (RFC 9110 §12.5.3), and
    /// repeated `Accept-Encoding` fields count as one list.
    public var acceptsGzip: Bool {
        var gzipWeight: Double? = nil
        var wildcardWeight: Double? = nil
        for item in QualityValue.list(headers.values("accept-encoding")) {
            switch item.value.lowercased() {
            case "gzip": gzipWeight = gzipWeight ?? item.weight
            case "*": wildcardWeight = wildcardWeight ?? item.weight
            default: continue
            }
        }
        return (gzipWeight ?? wildcardWeight ?? 0) > 0
    }
}
