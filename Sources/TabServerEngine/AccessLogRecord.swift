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
    /// The app's note on the answer (`HTTPResponse.accessLogNote`).
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

    /// Writes the request's line to `log` in its format (text or JSON); over TLS it names
    /// the protocol (`protocolName`: "http/1.1" or "h2") and the TLS version (`tlsVersion`,
    /// e.g. "TLSv1.3").
    func write(
        to log: LogSink, address: String, durationNanos: UInt64, aborted: Bool, tlsVersion: String? = nil,
        protocolName: String = "http/1.1"
    ) {
        if log.format == .json {
            var line = JSONLogLine(level: .info)
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
            log.write(bytes: line.finished)
            return
        }
        let line = AccessLogLine(
            address: address, method: method ?? "-", target: target ?? "-", status: status, bytesSent: bytes,
            durationNanos: durationNanos, aborted: aborted, note: note, tlsVersion: tlsVersion,
            protocolName: protocolName)
        log.write(bytes: line.bytes)
    }
}
