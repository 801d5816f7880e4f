// SPDX-License-Identifier: Apache-2.0
import Synchronization

// scripts/fuzz.sh compiles this module's files and TabServerThreads' as one module.
#if canImport(TabServerThreads)
    import TabServerThreads
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The lines waiting for one descriptor and the thread that writes them: every `LogSink`
/// made from one (`LogSink.named`) shares it, so their lines keep their order.
///
/// No caller ever waits for the descriptor. Lines are appended to `pending` under a lock
/// (an engine loop hands over all the lines of one pass of its loop at once); the writer
/// thread takes the whole buffer and writes it with as few `write(2)`s as it can, when
/// 16 KiB have gathered or 200 ms after the first line of the buffer (`WorkerThread`'s
/// `wake(within:)`: no timer runs while nothing waits). The thread is `SCHED_BATCH`: waking it
/// never preempts a loop in the middle of a request.
///
/// A descriptor slower than the lines arrive (a full disk, a stalled pipe) fills `pending`
/// to `capacity`; past it lines are dropped, not waited for, and counted (`dropped`), as
/// are lines a failed `write(2)` lost.
final class LogWriter: Sendable {
    let descriptor: Int32
    /// Bytes waiting beyond which new lines are dropped: at 50,000 lines a second, about
    /// half a second of them.
    static let capacity = 4 * 1024 * 1024
    /// Bytes waiting that wake the writer before its next tick.
    static let wakeThreshold = 16 * 1024
    /// The longest a line waits before it is written.
    static let tick: Duration = .milliseconds(200)

    private struct Pending {
        var bytes: [UInt8] = []
        var lines = 0
        /// Whether the writer was woken and has not yet taken the bytes.
        var woken = false
        /// An empty buffer with capacity, handed back by the writer for the next swap.
        var spare: [UInt8] = []
    }

    private let pending = Mutex(Pending())
    /// Held while bytes are written, so a `flush()` and the thread never interleave and
    /// what was taken first is written first.
    private let writing = Mutex<Void>(())
    private let droppedLines = Atomic<Int>(0)
    private let thread = WorkerThread(policy: .batch)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        thread.start { [weak self] in
            Self.blockPipeSignal()
            self?.drain()
        }
    }

    deinit {
        drain()  // what the last sink let go of without a flush
        thread.stop()
    }

    /// Lines dropped so far: the buffer was full, or the descriptor failed.
    var dropped: Int { droppedLines.load(ordering: .relaxed) }

    /// Appends `lines` complete lines (each ending in a newline) and empties `batch`,
    /// keeping its capacity where it can (it gets the writer's spare buffer back).
    func append(_ batch: inout [UInt8], lines: Int) {
        guard !batch.isEmpty else { return }
        enum Wake { case none, now, byTick }
        let wake = pending.withLock { pending -> Wake in
            if pending.bytes.count + batch.count > Self.capacity {
                droppedLines.add(lines, ordering: .relaxed)
                batch.removeAll(keepingCapacity: true)
                return .none
            }
            let first = pending.bytes.isEmpty
            if first {
                // Nothing waits: the batch becomes the pending buffer and the caller gets
                // the spare one, no bytes copied.
                swap(&pending.bytes, &batch)
                swap(&batch, &pending.spare)
            } else {
                pending.bytes.append(contentsOf: batch)
                batch.removeAll(keepingCapacity: true)
            }
            pending.lines += lines
            guard pending.bytes.count >= Self.wakeThreshold, !pending.woken else { return first ? .byTick : .none }
            pending.woken = true
            return .now
        }
        switch wake {
        case .none: break
        case .now: thread.wake()
        case .byTick: thread.wake(within: Self.tick)
        }
    }

    /// Writes whatever is waiting, on the caller's thread, before it returns.
    func flush() {
        drain()
    }

    private func drain() {
        writing.withLock { _ in
            var taken: [UInt8] = []
            let lines = pending.withLock { pending -> Int in
                swap(&taken, &pending.bytes)
                defer {
                    pending.lines = 0
                    pending.woken = false
                }
                return pending.lines
            }
            guard !taken.isEmpty else { return }
            let lost = writeAll(taken)
            if lost > 0 { droppedLines.add(min(lost, lines), ordering: .relaxed) }
            taken.removeAll(keepingCapacity: true)
            pending.withLock { pending in
                if pending.spare.capacity < taken.capacity { swap(&pending.spare, &taken) }
            }
        }
    }

    /// A reader gone away (a closed pipe) makes `write(2)` fail with EPIPE on this thread
    /// instead of raising SIGPIPE, which would end an app that does not ignore it.
    private static func blockPipeSignal() {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    }

    /// Writes `bytes` out; returns the number of lines not written (a failed descriptor:
    /// a full disk, a closed pipe).
    private func writeAll(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A descriptor left non-blocking by whoever opened it: this thread
                        // may wait for it (no loop does).
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        if poll(&ready, 1, -1) >= 0 { continue }
                    }
                    return raw[offset...].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                }
                offset += written
            }
            return 0
        }
    }
}
