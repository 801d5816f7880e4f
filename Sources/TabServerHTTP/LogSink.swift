// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A buffered line writer for a file descriptor (stdout for the access log, stderr for
/// diagnostics). One `write(2)` per request would cost more than rendering the page, so
/// lines collect in memory and are flushed when 16 KiB accumulate, every 200 ms, and at
/// shutdown. Lines are never interleaved mid-line.
///
/// Every message starts with the app's name (`name`: "groceries: reload refused"), so the
/// lines of several programs in one log are told apart.
///
/// ```swift
/// let log = LogSink(descriptor: 2, format: .json, name: "groceries")
/// log.write("reload refused", level: .error)   // {"time":…,"level":"error","msg":"groceries: reload refused"}
/// ```
public final class LogSink: Sendable {
    /// The name each message starts with.
    public let name: String
    /// Text or JSON lines: `write(_:level:)` formats messages by it, and the engine
    /// writes the access log in it.
    public let format: LogFormat
    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])
    private let flushThreshold = 16 * 1024

    /// Standard output, for the access log.
    public static let standardOutput = LogSink(descriptor: 1)
    /// Standard error, for start-up, shutdown and errors.
    public static let standardError = LogSink(descriptor: 2)

    /// A sink writing to `descriptor`, which the caller keeps open; its messages start
    /// with `name`.
    public init(descriptor: Int32, format: LogFormat = .text, name: String = "tabserver") {
        self.descriptor = descriptor
        self.format = format
        self.name = name
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

    /// The same descriptor and format, its messages starting with `name`.
    public func named(_ name: String) -> LogSink {
        LogSink(descriptor: descriptor, format: format, name: name)
    }

    /// Appends one message, after the sink's name: the line as it is in text format, or a
    /// JSON object with `time`, `level` and `msg` in JSON format (a newline is added).
    public func write(_ message: String, level: LogLevel = .info) {
        let message = name + ": " + message
        switch format {
        case .text:
            write(bytes: Array(message.utf8))
        case .json:
            var line = JSONLogLine(level: level, capacity: message.utf8.count + 64)
            line.add("msg", message)
            write(bytes: line.finished)
        }
    }

    /// Appends one line given as UTF-8 bytes, already formatted (a newline is added).
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
