/// A setting that could not be used, named with the flag or variable it came from.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
