// SPDX-License-Identifier: Apache-2.0
/// Typed values a middleware step hands to the steps and the route after it, keyed by
/// their type: the signed-in account a sign-in step found, a tenant, a request id.
///
/// ```swift
/// struct Account: Sendable { let id: Int }
/// var context = context
/// context.values[Account.self] = Account(id: 7)        // in the middleware
/// let account = try context.values.require(Account.self) // in the handler: 500 if missing
/// ```
public struct ContextValues: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    /// The value of `type`, if a step set one.
    public subscript<Value: Sendable>(type: Value.Type) -> Value? {
        get { storage[ObjectIdentifier(type)] as? Value }
        set { storage[ObjectIdentifier(type)] = newValue }
    }

    /// The value of `type`; an error (a 500: a step the route relies on did not run)
    /// when none was set.
    public func require<Value: Sendable>(_ type: Value.Type) throws -> Value {
        guard let value = self[type] else { throw MissingContextValue(type: "\(type)") }
        return value
    }
}

/// A route needed a context value no middleware step set (`ContextValues.require`).
public struct MissingContextValue: Error, Sendable, CustomStringConvertible {
    public let type: String
    public var description: String { "no middleware step set a \(type) for this request" }
}
