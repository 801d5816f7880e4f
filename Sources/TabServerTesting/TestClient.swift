// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// An in-process browser for tests: calls the app's responder directly (no socket),
/// keeps cookies like a browser, and can follow 303s.
///
/// ```swift
/// let client = TestClient(app.responder)
/// let page = client.get("/tabs/music")
/// let next = client.post("/select", form: ["csrf": page.csrfToken!, "tab": "movies"])
/// #expect(next.status == 303)
/// ```
public final class TestClient {
    private let responder: any HTTPResponder
    /// Cookies set by the app, by name.
    public var cookies: [String: String] = [:]
    /// Headers sent with every request (e.g. `Accept-Language`).
    public var defaultHeaders: [(String, String)] = []
    /// The socket peer the app sees (loopback, a trusted proxy, by default).
    public var remoteAddress = "127.0.0.1"

    public init(_ responder: any HTTPResponder) {
        self.responder = responder
    }

    /// Sends a request and records any cookie it sets.
    /// A form is sent as an url-encoded body, as a browser sends it; `body` with its
    /// content type in `headers` sends anything else (JSON, multipart).
    public func send(
        _ method: HTTPMethod, _ target: String, form: [(String, String)] = [], body: [UInt8] = [],
        headers: [(String, String)] = []
    ) -> TestResponse {
        var path = target
        var query: [(name: String, value: String)] = []
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = URLEncoding.decodeForm(target[target.index(after: mark)...])
        }
        var headerList = HTTPHeaders()
        for (name, value) in defaultHeaders + headers { headerList.add(name, value) }
        if !cookies.isEmpty {
            headerList.add(
                "Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        var bytes = body
        if !form.isEmpty {
            headerList.add("Content-Type", "application/x-www-form-urlencoded")
            bytes = Array(URLEncoding.encodeForm(form).utf8)
        }
        let request = HTTPRequest(
            method: method, path: URLEncoding.decode(path, plusIsSpace: false), query: query, headers: headerList,
            body: bytes, remoteAddress: remoteAddress)
        let response = TestResponse(responder.respond(to: request))
        for header in response.headers.values("set-cookie") {
            let pair = header.split(separator: ";")[0]
            if let equals = pair.firstIndex(of: "=") {
                cookies[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
        }
        return response
    }

    /// GET.
    public func get(_ target: String, headers: [(String, String)] = []) -> TestResponse {
        send(.get, target, headers: headers)
    }

    /// POST a urlencoded form.
    public func post(_ target: String, form: [(String, String)], headers: [(String, String)] = []) -> TestResponse {
        send(.post, target, form: form, headers: headers)
    }

    /// Follows 303/302/301 redirects with GETs (at most 10), returning the last response.
    public func follow(_ response: TestResponse) -> TestResponse {
        var current = response
        var hops = 0
        while [301, 302, 303, 307].contains(current.status), let location = current.location, hops < 10 {
            current = get(location)
            hops += 1
        }
        return current
    }
}
