// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP
import TabServerWeb

/// Reads the signed-in user from the header an authenticating proxy sets
/// (`--identity-header`). Believed only from `--trusted-proxies`: from any other peer the
/// header is ignored, and that is logged once per process (not per request). An empty,
/// repeated or over-long value, or one with control characters, counts as absent.
package final class IdentityReader: Sendable {
    /// Longest user name believed, in bytes.
    package static let maximumLength = 256

    private let header: String?
    private let trust: ProxyTrust
    private let log: LogSink?
    private let warned = Atomic<Bool>(false)

    package init(header: String?, trust: ProxyTrust, log: LogSink?) {
        self.header = header
        self.trust = trust
        self.log = log
    }

    /// The user the request's proxy names, or nil (anonymous).
    package func user(of request: HTTPRequest) -> String? {
        guard let header else { return nil }
        let values = request.headers.values(header)
        guard !values.isEmpty else { return nil }
        guard trust.trusts(request.remoteAddress) else {
            if !warned.exchange(true, ordering: .relaxed) {
                log?.write(
                    "ignoring \(header) from \(request.remoteAddress), which is not in --trusted-proxies (logged once)",
                    level: .warn)
            }
            return nil
        }
        guard values.count == 1, let value = values.first, Self.isAcceptable(value) else { return nil }
        return value
    }

    /// Whether `value` can name a user: 1 to 256 bytes, no control characters.
    package static func isAcceptable(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        return !bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
