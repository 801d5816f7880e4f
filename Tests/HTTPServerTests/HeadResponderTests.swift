import TabServerHTTP1
// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine
@testable import TabServerHTTP

/// The redirect listener is a responder that answers from heads: the engine finds that
/// out from the responder it serves, not from a mode of its own.
@Suite("Head responders")
struct HeadResponderTests {
    private func head(target: String, host: String?) -> RequestHead {
        let text = "POST \(target) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "Content-Length: 10\r\n\r\n"
        return HTTP1StateMachineTests.head(text)!
    }

    @Test("the engine answers from heads exactly when its responder is a head responder")
    func engineFindsIt() {
        let redirect = HTTPSRedirect(httpsPort: 8443)
        let plain = Engine(
            responder: Plain(), configuration: HTTPServerConfiguration(port: 0), accessLog: nil,
            errorLog: .standardError, listenDescriptor: -1, lifecycle: Lifecycle())
        let redirecting = Engine(
            responder: redirect, configuration: HTTPServerConfiguration(port: 0), accessLog: nil,
            errorLog: .standardError, listenDescriptor: -1, lifecycle: Lifecycle())
        #expect(plain.headResponder == nil)
        #expect(redirecting.headResponder is HTTPSRedirect)
    }

    @Test("a head with a usable host gets a 308 and keeps the connection; one without gets a 400 and the close")
    func answersHeads() {
        let redirect = HTTPSRedirect(httpsPort: 8443)
        let moved = redirect.answer(toHead: head(target: "/tabs/tv?x=1", host: "shop.local:8080"))
        #expect(moved.response.status == .permanentRedirect)
        #expect(moved.response.headers["location"] == "https://shop.local:8443/tabs/tv?x=1")
        #expect(moved.close == false)
        for host in ["", "shop.local:80x", "[::1"] {
            let refused = redirect.answer(toHead: head(target: "/", host: host))
            #expect(refused.response.status == .badRequest, "host \(host.debugDescription)")
            #expect(refused.response.headers["location"] == nil)
            #expect(refused.close, "host \(host.debugDescription)")
        }
    }

    @Test("asked with a whole request, it encodes the decoded path and query again")
    func wholeRequest() async {
        let redirect = HTTPSRedirect(httpsPort: 443)
        var headers = HTTPHeaders()
        headers.add("Host", "shop.local")
        let request = HTTPRequest(
            method: .get, path: "/tabs/a b/é", query: [("q", "x&y=z"), ("empty", "")], headers: headers)
        let response = await redirect.response(for: request)
        #expect(response.status == .permanentRedirect)
        #expect(response.headers["location"] == "https://shop.local/tabs/a%20b/%C3%A9?q=x%26y%3Dz&empty=")
    }

    private struct Plain: HTTPResponder {
        func answer(to request: HTTPRequest) async -> ResponderAnswer { ResponderAnswer(.text("ok\n")) }
    }
}
