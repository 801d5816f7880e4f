// SPDX-License-Identifier: Apache-2.0
/// What a store's admission has done since start (`/metrics`): sessions stored, promoted
/// from probation, and evicted to make room, by where they stood.
public struct SessionAdmissionCounts: Sendable, Hashable {
    /// New sessions stored (anonymous and users' records).
    public var created = 0
    /// Probationary sessions established because their visitor came back.
    public var promoted = 0
    /// Sessions evicted while on probation.
    public var evictedProbationary = 0
    /// Established sessions evicted (the least recently seen, only while fewer than the
    /// probation reserve are on probation).
    public var evictedEstablished = 0
    /// Users' records evicted because users alone filled their own budget.
    public var evictedUsers = 0

    public init() {}
}
