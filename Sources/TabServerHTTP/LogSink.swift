// SPDX-License-Identifier: Apache-2.0
/// A buffered line writer for a file descriptor (stdout for the access log, stderr for
/// diagnostics). Lines collect in memory and a thread of the sink's own writes them in
/// batches (when 16 KiB accumulate, every 200 ms, and at `flush()`): no caller ever waits
/// for the descriptor. Lines are never interleaved mid-line. A descriptor that cannot keep
/// up (a full disk, a stalled pipe) costs lines, not time: past 4 MiB waiting, lines are
/// dropped and counted (`droppedLines`, in `/metrics`).
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
    private let writer: LogWriter

    /// Standard output, for the access log.
    public static let standardOutput = LogSink(descriptor: 1)
    /// Standard error, for start-up, shutdown and errors.
    public static let standardError = LogSink(descriptor: 2)

    /// A sink writing to `descriptor`, which the caller keeps open; its messages start
    /// with `name`.
    public init(descriptor: Int32, format: LogFormat = .text, name: String = "tabserver") {
        self.writer = LogWriter(descriptor: descriptor)
        self.format = format
        self.name = name
    }

    private init(writer: LogWriter, format: LogFormat, name: String) {
        self.writer = writer
        self.format = format
        self.name = name
    }

    /// The same descriptor, format and writer (so their lines keep their order), its
    /// messages starting with `name`.
    public func named(_ name: String) -> LogSink {
        LogSink(writer: writer, format: format, name: name)
    }

    /// Lines dropped since the sink was made because its descriptor could not keep up or
    /// failed.
    public var droppedLines: Int { writer.dropped }

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
        var batch = line
        batch.append(10)
        writer.append(&batch, lines: 1)
    }

    /// Appends `lines` complete lines, each already ending in a newline, and empties
    /// `batch` (keeping capacity for the next): an engine loop's access-log lines of one
    /// pass, handed over with one lock.
    package func append(batch: inout [UInt8], lines: Int) {
        writer.append(&batch, lines: lines)
    }

    /// Writes out whatever is buffered before it returns.
    public func flush() {
        writer.flush()
    }
}
