// SPDX-License-Identifier: Apache-2.0
/// The severity of a server message (the `level` field of JSON log lines).
public enum LogLevel: String, Sendable, Hashable {
    case debug, info, warn, error
}
