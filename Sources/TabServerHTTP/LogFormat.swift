// SPDX-License-Identifier: Apache-2.0
/// How a `LogSink` writes lines: plain text for people, or one JSON object per line
/// for log collectors (`--log-format json`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// `tabserver: listening on …`, and the access log as `addr GET /path 200 512B 0.4ms`.
    case text
    /// `{"time":"2026-11-30T12:00:00.000Z","level":"info","msg":"…"}`; access lines carry
    /// `remote`, `method`, `path`, `status`, `bytes`, `duration_ms` and `note` instead of `msg`.
    case json
}
