// SPDX-License-Identifier: Apache-2.0
/// Something a request looks up at most once: not yet, or looked up, and then either
/// found or known to be absent (no cookie, no stored session).
enum Lookup<Value: Sendable>: Sendable {
    case notYet
    case done(Value?)
}
