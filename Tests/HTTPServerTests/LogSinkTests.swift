// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization
import TabServerHTTP
import TabServerTesting
import Testing

@Suite("Log sink: lines written by a thread of its own, in batches; what it cannot write is counted")
struct LogSinkTests {
    @Test("lines from eight threads all arrive whole, each thread's in the order it wrote them")
    func orderAcrossThreads() throws {
        let path = TestFixtures.temporaryDirectory("logsink") + "/log.txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let sink = LogSink(descriptor: descriptor)
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<perThread {
                sink.write(bytes: Array("t\(thread) \(index) \(String(repeating: "x", count: 40))".utf8))
            }
        }
        sink.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 8 * perThread)
        var next = [Int](repeating: 0, count: 8)
        for line in lines {
            let parts = line.split(separator: " ")
            let thread = try #require(Int(parts[0].dropFirst()))
            #expect(Int(parts[1]) == next[thread], "thread \(thread)'s lines out of order")
            #expect(parts[2].count == 40, "a line cut or interleaved: \(line)")
            next[thread] += 1
        }
        #expect(sink.droppedLines == 0)
    }

    @Test("a loop's batch of lines is taken whole and the batch emptied; named sinks share the writer and its order")
    func batches() throws {
        let path = TestFixtures.temporaryDirectory("logsink") + "/log.txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let sink = LogSink(descriptor: descriptor)
        let other = sink.named("other")
        var batch = Array("one\ntwo\n".utf8)
        sink.append(batch: &batch, lines: 2)
        #expect(batch.isEmpty)
        other.write("three")
        batch.append(contentsOf: "four\n".utf8)
        sink.append(batch: &batch, lines: 1)
        other.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\ntwo\nother: three\nfour\n")
    }

    @Test("a full disk (/dev/full) costs the lines, counted, and no caller waits or fails")
    func fullDisk() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = LogSink(descriptor: descriptor)
        for index in 0..<100 { sink.write("line \(index)") }
        sink.flush()
        #expect(sink.droppedLines == 100)
    }

    @Test("a stalled pipe never blocks a writer: past 4 MiB waiting, lines are dropped and counted, none lost unsaid")
    func stalledPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let sink = LogSink(descriptor: ends[1])
        let total = 100_000
        let line = Array(String(repeating: "y", count: 99).utf8)  // 100 bytes with the newline: 10 MB
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for _ in 0..<total { sink.write(bytes: line) }
            done.signal()
        }
        // Nobody reads the pipe (64 KiB): a writer that waited for it would never finish.
        #expect(done.wait(timeout: .now() + 20) == .success, "writing lines waited for the stalled pipe")
        #expect(sink.droppedLines > 0)
        // Now read it all: every line is either read or counted as dropped.
        let received = Atomic<Int>(0)
        let drained = DispatchSemaphore(value: 0)
        let reader = ends[0]
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count <= 0 { break }
                received.add(buffer[0..<count].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }, ordering: .relaxed)
            }
            drained.signal()
        }
        sink.flush()
        close(ends[1])
        #expect(drained.wait(timeout: .now() + 20) == .success)
        #expect(received.load(ordering: .relaxed) + sink.droppedLines == total)
        #expect(received.load(ordering: .relaxed) >= LogWriterFigures.capacityLines)
    }

    @Test("a pipe whose reader has gone (EPIPE) costs the lines, counted, and raises no SIGPIPE")
    func closedPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let sink = LogSink(descriptor: ends[1])
        for index in 0..<10 { sink.write("line \(index)") }
        // The writer's own thread writes them within its 200 ms tick (a SIGPIPE would end
        // this test process).
        let deadline = Date().addingTimeInterval(10)
        while sink.droppedLines < 10 && Date() < deadline { usleep(20_000) }
        #expect(sink.droppedLines == 10)
    }
}

/// What the stalled-pipe test may count on: 4 MiB of its 100-byte lines wait before any is dropped.
enum LogWriterFigures {
    static let capacityLines = 4 * 1024 * 1024 / 100
}
