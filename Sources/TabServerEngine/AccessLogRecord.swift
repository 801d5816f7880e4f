// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// What the access log says of one request, gathered while it is served: begun when its
/// head is parsed (or refused), its status and size set when it is answered, written as
/// one line when it finishes.
struct AccessLogRecord {
    /// When the request began (monotonic nanoseconds).
    let start: UInt64
    /// The method and target as received (nil when the head was too broken to tell).
    let method: String?
    let target: String?
    /// The status answered (0 until an answer is queued).
    private(set) var status = 0
    /// Body bytes sent (a stream's grow as it writes).
    var bytes = 0
    /// The app's note on the answer (`ResponderAnswer.logNote`).
    private(set) var note: String?

    init(start: UInt64, method: String?, target: String?) {
        self.start = start
        self.method = method
        self.target = target
    }

    /// Records the answer queued for the request.
    mutating func answered(status: Int, bytes: Int, note: String?) {
        self.status = status
        self.bytes = bytes
        self.note = note
    }

    /// Appends the request's line, newline included, to `batch` (a loop's lines of one
    /// pass) in `format` (text or JSON); over TLS it names the protocol (`protocolName`:
    /// "http/1.1" or "h2") and the TLS version (`tlsVersion`, e.g. "TLSv1.3").
    func append(
        to batch: inout [UInt8], format: LogFormat, address: String, durationNanos: UInt64, aborted: Bool,
        tlsVersion: String? = nil, protocolName: String = "http/1.1"
    ) {
        var buffer: [UInt8] = []
        swap(&buffer, &batch)  // the line takes the only reference: appended to in place
        if format == .json {
            var line = JSONLogLine(level: .info, continuing: consume buffer)
            line.add("remote", address)
            line.add("method", method ?? "-")
            line.add("path", target ?? "-")
            line.add("status", status)
            line.add("bytes", bytes)
            line.add("duration_ms", thousandths: durationNanos / 1000)
            if let tlsVersion {
                line.add("protocol", protocolName)
                line.add("tls", tlsVersion)
            }
            if aborted { line.add("aborted", true) }
            if let note { line.add("note", note) }
            batch = line.finishedLine()
            return
        }
        var line = AccessLogLine(
            appendingTo: consume buffer, address: address, method: method ?? "-", target: target ?? "-", status: status,
            bytesSent: bytes, durationNanos: durationNanos, aborted: aborted, note: note, tlsVersion: tlsVersion,
            protocolName: protocolName)
        batch = line.takeLine()
    }
}
