// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("Middleware chain")
struct MiddlewareChainTests {
    @Test("steps run in order around the terminal; one may answer without calling on")
    func order() {
        var chain = MiddlewareChain()
        chain.add(
            MiddlewareStep("a") { request, next in
                var request = request
                request.path += "/a"
                return next(request).map { response in
                    var response = response
                    response.headers.add("X-Order", "a")
                    return response
                }
            })
        chain.add(
            MiddlewareStep("b") { request, next in
                request.path.hasSuffix("/stop/a") ? .now(.text("stopped", status: .forbidden)) : next(request)
            })
        let answer = chain.answer(HTTPRequest(method: .get, path: "/x")) { request in .now(.text(request.path)) }
        let response = answer.wait()
        #expect(response.body == .bytes(Array("/x/a".utf8)))
        #expect(response.headers["x-order"] == "a")
        let stopped = chain.answer(HTTPRequest(method: .get, path: "/stop")) { _ in .now(.text("never")) }.wait()
        #expect(stopped.status == .forbidden)
        #expect(stopped.headers["x-order"] == "a")
    }

    @Test("map applies to an answer that comes later")
    func mapLater() {
        let deferred = DeferredResponse()
        let mapped = HTTPAnswer.later(deferred).map { response in
            var response = response
            response.status = .noContent
            return response
        }
        deferred.complete(.text("late"))
        #expect(mapped.wait().status == .noContent)
    }
}
