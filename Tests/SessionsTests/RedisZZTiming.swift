import Foundation
import TestSupport
import Testing

@Suite struct RedisZZTiming {
    @Test func timing() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sleep")
        p.arguments = ["30"]
        try p.run()
        usleep(100_000)
        let t = ContinuousClock.now
        kill(p.processIdentifier, SIGTERM)
        var n = 0
        while p.isRunning && n < 500 {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
            n += 1
        }
        print("TIMING runloop loops", n, ContinuousClock.now - t)
        let q = Process()
        q.executableURL = URL(fileURLWithPath: "/bin/sleep")
        q.arguments = ["30"]
        try q.run()
        usleep(100_000)
        let t2 = ContinuousClock.now
        kill(q.processIdentifier, SIGTERM)
        q.waitUntilExit()
        print("TIMING waitUntilExit", ContinuousClock.now - t2)
    }
}
