// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerWeb

/// A browser for tests, in-process or over a real socket with the same async calls: in
/// process it asks the app's responder directly (no socket, no engine), as the engine
/// would; over a socket it speaks HTTP/1.1 to a server on loopback (`AppServer`, or a
/// process), one kept-alive connection at a time. Either way it keeps cookies like a
/// browser, can follow 303s, and reads the form token of the page it was last given.
///
/// ```swift
/// let client = try TestClient(app)                   // or TestClient(port: server.port)
/// let page = await client.get("/tabs/music")
/// let next = await client.post("/select", form: [("csrf", page.csrfToken!), ("tab", "movies")])
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

    /// A client of `app` in this process (built first; its start-up error is thrown).
    public convenience init(_ app: Application) throws(StartupError) {
        try app.build()
        self.init(app.responder)
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
    ) async -> TestResponse {
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
            response = TestResponse(await responder.response(for: request))
            // The app's observers have heard of what this request committed, as a caller
            // over a socket could wait for them.
            if let app = responder as? TabServerResponder { _ = app.finishHooks(within: .seconds(5)) }
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
    public func get(_ target: String, headers: [(String, String)] = []) async -> TestResponse {
        await send(.get, target, headers: headers)
    }

    /// POST a urlencoded form.
    public func post(_ target: String, form: [(String, String)], headers: [(String, String)] = []) async
        -> TestResponse
    {
        await send(.post, target, form: form, headers: headers)
    }

    /// POST `value` as JSON (`Content-Type: application/json`).
    public func post<Value: Encodable>(_ target: String, json value: Value, headers: [(String, String)] = []) async
        -> TestResponse
    {
        let body = (try? JSONEncoder().encode(value)).map { Array($0) } ?? []
        return await send(.post, target, body: body, headers: [("Content-Type", "application/json")] + headers)
    }

    /// Follows 303/302/301 redirects with GETs (at most 10), returning the last response.
    public func follow(_ response: TestResponse) async -> TestResponse {
        var current = response
        var hops = 0
        while [301, 302, 303, 307].contains(current.status), let location = current.location, hops < 10 {
            current = await get(location)
            hops += 1
        }
        return current
    }
}
