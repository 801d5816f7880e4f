// SPDX-License-Identifier: Apache-2.0
/// What a store holds of a session in this process's memory (`SessionStore.heldCopy`):
/// the copy `loadOptimistically` would answer with, and whether a write of it awaits its
/// commit (`SessionStore.awaitsCommit`).
public struct HeldSession: Sendable {
    public let session: Session
    public let awaitsCommit: Bool

    public init(session: Session, awaitsCommit: Bool) {
        self.session = session
        self.awaitsCommit = awaitsCommit
    }
}
