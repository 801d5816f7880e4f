import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A buffered line writer for a file descriptor (stdout for the access log, stderr for
/// diagnostics). One `write(2)` per request would cost more than rendering the page, so
/// lines collect in memory and are flushed when 16 KiB accumulate, every 200 ms, and at
/// shutdown. Lines are never interleaved mid-line.
public final class LogSink: Sendable {
    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])
    private let flushThreshold = 16 * 1024

    /// Standard output, for the access log.
    public static let standardOutput = LogSink(descriptor: 1)
    /// Standard error, for start-up, shutdown and errors.
    public static let standardError = LogSink(descriptor: 2)

    /// A sink writing to `descriptor`, which the caller keeps open.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        scheduleFlush()
    }

    /// Flushes every 200 ms for as long as the sink exists (the weak reference ends the chain).
    private func scheduleFlush() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(200)) { [weak self] in
            guard let self else { return }
            self.flush()
            self.scheduleFlush()
        }
    }

    /// Appends one line (a newline is added).
    public func write(_ line: String) {
        write(bytes: Array(line.utf8))
    }

    /// Appends one line given as UTF-8 bytes (a newline is added).
    public func write(bytes line: [UInt8]) {
        var full: [UInt8]? = nil
        buffer.withLock { bytes in
            bytes.append(contentsOf: line)
            bytes.append(10)
            if bytes.count >= flushThreshold {
                full = bytes
                bytes.removeAll(keepingCapacity: true)
            }
        }
        if let full { writeAll(full) }
    }

    /// Writes out whatever is buffered.
    public func flush() {
        let pending: [UInt8] = buffer.withLock { bytes in
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
        if !pending.isEmpty { writeAll(pending) }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
