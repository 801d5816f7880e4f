// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// A browser for tests, in-process or over a real socket with the same calls: in
/// process it calls the app's responder directly (no socket, no engine); over a socket
/// it speaks HTTP/1.1 to a server on loopback (`AppServer`, or a process), one kept-alive
/// connection at a time. Either way it keeps cookies like a browser and can follow 303s.
///
/// ```swift
/// let client = TestClient(app.responder)          // or TestClient(port: server.port)
/// let page = client.get("/tabs/music")
/// let next = client.post("/select", form: [("csrf", page.csrfToken!), ("tab", "movies")])
/// #expect(next.status == 303)
/// ```
public final class TestClient {
    private enum Transport {
        case inProcess(any HTTPResponder)
        case socket(port: Int)
    }

    private let transport: Transport
    private var connection: RawHTTPConnection?
    /// Cookies set by the app, by name.
    public var cookies: [String: String] = [:]
    /// Headers sent with every request (e.g. `Accept-Language`).
    public var defaultHeaders: [(String, String)] = []
    /// The socket peer the app sees (loopback, a trusted proxy, by default).
    public var remoteAddress = "127.0.0.1"

    /// A client calling `responder` in this process.
    public init(_ responder: any HTTPResponder) {
        transport = .inProcess(responder)
    }

    /// A client of the server listening on `port` on 127.0.0.1.
    public init(port: Int) {
        transport = .socket(port: port)
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
        let response: TestResponse
        switch transport {
        case .inProcess(let responder):
            let request = HTTPRequest(
                method: method, path: URLEncoding.decode(path, plusIsSpace: false), query: query, headers: headerList,
                body: bytes, remoteAddress: remoteAddress)
            response = TestResponse(responder.respond(to: request))
        case .socket(let port):
            response = exchange(method, target, headerList, bytes, port: port)
        }
        for header in response.headers.values("set-cookie") {
            let pair = header.split(separator: ";")[0]
            if let equals = pair.firstIndex(of: "=") {
                cookies[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
        }
        return response
    }

    /// One request over the kept-alive connection (a new one when the server closed it);
    /// status 0 when no answer came.
    private func exchange(_ method: HTTPMethod, _ target: String, _ headers: HTTPHeaders, _ body: [UInt8], port: Int)
        -> TestResponse
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if !body.isEmpty || method == .post { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        for attempt in 0..<2 {
            if connection == nil || attempt > 0 { connection = RawHTTPConnection(port: port) }
            guard let connection, connection.send(bytes: Array(head.utf8) + body),
                let response = connection.readResponse(headRequest: method == .head)
            else { continue }
            if response.headers["connection"]?.lowercased() == "close" { self.connection = nil }
            return response
        }
        connection = nil
        return TestResponse(status: 0, headers: HTTPHeaders(), body: [])
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
