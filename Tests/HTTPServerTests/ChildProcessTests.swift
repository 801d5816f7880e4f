// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTestSupport
import TabServerTesting
import Testing

/// The harness that starts nginx, Caddy, Redis and the `tabserver` binary in other tests.
@Suite("Child processes of the tests")
struct ChildProcessTests {
    @Test("a child inherits no descriptor beyond standard input, output and error")
    func noInheritedDescriptors() throws {
        // Sockets the test holds open, not marked close-on-exec.
        let held = (0..<20).map { _ in socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
        defer { for descriptor in held { close(descriptor) } }
        #expect(held.allSatisfy { $0 > 2 })
        let child = try ChildProcess(["/bin/ls", "/proc/self/fd"], standardOutput: .pipe)
        let listed = Set(child.readAllOutput().split(separator: "\n").compactMap { Int32($0) })
        #expect(child.waitForExit(.seconds(10)) == .exited(0))
        // ls itself opens one descriptor for the directory it reads.
        #expect(listed.subtracting([0, 1, 2]).count <= 1, "inherited: \(listed.sorted())")
        #expect(listed.isSuperset(of: [0, 1, 2]))
    }

    @Test("SIGTERM reaches the child, though the test thread blocks it; exit statuses are reported")
    func signalsAndStatuses() throws {
        let sleeper = try ChildProcess(["/bin/sleep", "30"])
        #expect(sleeper.isRunning)
        // A child that inherited a blocked SIGTERM would only die of the SIGKILL after 5 s.
        #expect(sleeper.stop(SIGTERM) == .signaled(SIGTERM))
        #expect(!sleeper.isRunning)

        let failing = try ChildProcess(["/bin/sh", "-c", "echo nope >&2; exit 3"], standardError: .pipe)
        #expect(failing.readAllOutput() == "nope\n")
        #expect(failing.waitForExit(.seconds(10)) == .exited(3))
        #expect(throws: TestSupportError.self) { try ChildProcess(["/nonexistent/program"]) }
    }
}
