// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("HTTPError")
struct HTTPErrorTests {
    @Test("methodNotAllowed is a 405 whose Allow header lists the methods in order")
    func methodNotAllowed() {
        let error = HTTPError.methodNotAllowed(allowed: [.get, .head, .post])
        #expect(error.status == .methodNotAllowed)
        #expect(error.status.code == 405)
        #expect(error.headers["Allow"] == "GET, HEAD, POST")
        #expect(error.headers["allow"] == "GET, HEAD, POST")
        #expect(error.headers.values("Allow").count == 1)
        #expect(error.message.contains("GET, HEAD, POST"))
        #expect(error.field == nil)
    }

    @Test("methodNotAllowed with one method has no separator")
    func methodNotAllowedSingle() {
        #expect(HTTPError.methodNotAllowed(allowed: [.post]).headers["Allow"] == "POST")
    }

    @Test("badRequest keeps the field at fault")
    func badRequest() {
        let error = HTTPError.badRequest("Unknown action 'fly'.", field: "action")
        #expect(error.status.code == 400)
        #expect(error.field == "action")
        #expect(error.message == "Unknown action 'fly'.")
        #expect(error.headers.count == 0)
        #expect(HTTPError.badRequest("No field.").field == nil)
    }

    @Test(
        "each factory gives its status",
        arguments: [
            (HTTPError.forbidden("no"), 403), (HTTPError.notFound(), 404), (HTTPError.conflict("stale"), 409),
            (HTTPError.internalError(), 500), (HTTPError.unavailable("redis"), 503),
        ])
    func statuses(error: HTTPError, code: Int) {
        #expect(error.status.code == code)
        #expect(!error.message.isEmpty)
        #expect(error.description.hasPrefix("\(code) "))
    }

    @Test("errors compare by value")
    func equality() {
        #expect(HTTPError.badRequest("x", field: "a") == HTTPError.badRequest("x", field: "a"))
        #expect(HTTPError.badRequest("x", field: "a") != HTTPError.badRequest("x", field: "b"))
        #expect(HTTPError.methodNotAllowed(allowed: [.get]) != HTTPError.methodNotAllowed(allowed: [.post]))
    }
}
