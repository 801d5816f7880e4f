// SPDX-License-Identifier: Apache-2.0
/// A setting that could not be used, named with the flag or variable it came from.
///
/// ```swift
/// catch let error as ConfigurationError {
///     print(error)   // --port: '99999' is not a whole number in 0…65535
/// }
/// ```
public struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The whole message, starting with the flag when one is at fault.
    public let message: String
    /// The flag at fault, without dashes ("port"), when the error is about one setting.
    public let flag: String?

    /// An error with a finished message, about `flag` if given (the message is then
    /// expected to name it already).
    public init(_ message: String, flag: String? = nil) {
        self.message = message
        self.flag = flag
    }

    public var description: String { message }
}
