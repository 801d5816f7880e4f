import HTTPTypes

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
        for header in headers.values("accept-encoding") {
            for item in header.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingASCIISpaces() }
                guard let coding = parts.first?.lowercased(), coding == "gzip" || coding == "*" else { continue }
                let q =
                    parts.dropFirst().first { $0.hasPrefix("q=") || $0.hasPrefix("Q=") }.flatMap {
                        Double($0.dropFirst(2))
                    }
                    ?? 1
                if coding == "gzip" { gzipWeight = gzipWeight ?? q } else { wildcardWeight = wildcardWeight ?? q }
            }
        }
        return (gzipWeight ?? wildcardWeight ?? 0) > 0
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
