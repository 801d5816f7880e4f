// SPDX-License-Identifier: Apache-2.0
import Dispatch
import TabServerHTTP
import Testing

/// A later answer lives until it is taken, and not a moment longer: chaining one to
/// another (`map`) must not make either immortal (the soak found it: RSS grew 0.5 MiB a
/// second while requests were chained through worker lanes).
@Suite("Deferred responses")
struct DeferredResponseTests {
    @Test("a mapped later answer, completed and taken, is freed with what it held")
    func mappedIsFreed() {
        weak var inner: DeferredResponse?
        weak var outer: DeferredResponse?
        do {
            let deferred = DeferredResponse()
            inner = deferred
            let mapped = HTTPAnswer.later(deferred).map { response in
                var response = response
                response.headers.add("X-Mapped", "1")
                return response
            }
            guard case .later(let chained) = mapped else {
                Issue.record("a later answer mapped is later")
                return
            }
            outer = chained
            deferred.complete(HTTPResponse.text("late\n"))
            let response = chained.wait(timeout: .seconds(2))
            #expect(response.headers["x-mapped"] == "1")
        }
        #expect(inner == nil, "the inner answer outlived everyone who held it")
        #expect(outer == nil, "the mapped answer outlived everyone who held it")
    }

    @Test("a wake attached after the response came is called at once and not kept")
    func lateAttach() {
        weak var kept: DeferredResponse?
        var called = false
        do {
            let deferred = DeferredResponse()
            kept = deferred
            deferred.complete(HTTPResponse.text("early\n"))
            deferred.attach { _ = deferred.take() }
            called = true
        }
        #expect(called)
        #expect(kept == nil)
    }

    @Test("wait gives up after its deadline with a 503 that says so, and a late response is dropped")
    func waitDeadline() {
        let deferred = DeferredResponse()
        let started = DispatchTime.now()
        let response = deferred.wait(timeout: .milliseconds(100))
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(response.status == .serviceUnavailable)
        #expect(waited >= 0.09 && waited < 2, "waited \(waited) s")
        deferred.complete(HTTPResponse.text("too late\n"))
        #expect(deferred.wait().status == .serviceUnavailable)
    }
}
