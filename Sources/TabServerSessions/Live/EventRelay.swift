// SPDX-License-Identifier: Apache-2.0
/// Carries live events between instances that share a session store, so a badge set on
/// one instance reaches a visitor whose page is streaming from another.
public protocol EventRelay: Sendable {
    /// Starts receiving; `deliver` gets each payload another instance published.
    func start(deliver: @escaping @Sendable ([UInt8]) -> Void)
    /// Sends a payload to every instance (this one included; the hub skips its own).
    func publish(_ payload: [UInt8])
    /// Stops receiving.
    func stop()
    /// Payloads that could not be sent since start (`/metrics`).
    var publishFailures: Int { get }
}

extension EventRelay {
    /// A relay that cannot fail to send reports none.
    public var publishFailures: Int { 0 }
}
