// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("Middleware chain")
struct MiddlewareChainTests {
    @Test("steps run in order around the terminal; one may answer without calling on")
    func order() async {
        var chain = MiddlewareChain<TestContext>()
        chain.add(
            MiddlewareStep<TestContext>("a") { request, context, next in
                var request = request
                request.path += "/a"
                var response = try await next(request, context)
                response.headers.add("X-Order", "a")
                return response
            })
        chain.add(
            MiddlewareStep<TestContext>("b") { request, context, next in
                request.path.hasSuffix("/stop/a")
                    ? .text("stopped", status: .forbidden) : try await next(request, context)
            })
        let recover: (any Error, HTTPRequest, TestContext) -> HTTPResponse = { _, _, _ in
            HTTPResponse(status: .internalServerError)
        }
        let response = await chain.run(HTTPRequest(method: .get, path: "/x"), TestContext(), recover: recover) {
            request, _ in .text(request.path)
        }
        #expect(response.body == .bytes(Array("/x/a".utf8)))
        #expect(response.headers["x-order"] == "a")
        let stopped = await chain.run(HTTPRequest(method: .get, path: "/stop"), TestContext(), recover: recover) {
            _, _ in .text("never")
        }
        #expect(stopped.status == .forbidden)
        #expect(stopped.headers["x-order"] == "a")
    }

    @Test("an error thrown inside reaches the steps outside it as its answer, not as an error")
    func errorsBecomeAnswers() async {
        var chain = MiddlewareChain<TestContext>()
        chain.add(
            MiddlewareStep<TestContext>("outer") { request, context, next in
                var response = try await next(request, context)
                response.headers.add("X-Outer", "saw \(response.status.code)")
                return response
            })
        let recover: (any Error, HTTPRequest, TestContext) -> HTTPResponse = { error, _, _ in
            HTTPResponse(status: (error as? HTTPError)?.status ?? .internalServerError)
        }
        let response = await chain.run(HTTPRequest(method: .get, path: "/"), TestContext(), recover: recover) { _, _ in
            throw HTTPError.notFound()
        }
        #expect(response.status == .notFound)
        #expect(response.headers["x-outer"] == "saw 404")
    }
}
