import HTTPServer

extension HTTPRequest {
    /// The value of the first cookie called `name` in the `Cookie` header(s), if any.
    /// Malformed pairs are skipped, never an error: cookies are client input.
    public func cookie(_ name: String) -> String? {
        for header in headers.values("cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name {
                    var value = trimmed[trimmed.index(after: equals)...]
                    while value.last == " " { value = value.dropLast() }
                    if value.count >= 2 && value.first == "\"" && value.last == "\"" {
                        value = value.dropFirst().dropLast()
                    }
                    return String(value)
                }
            }
        }
        return nil
    }
}
