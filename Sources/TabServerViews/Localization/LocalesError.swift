// SPDX-License-Identifier: Apache-2.0
/// Why the locales folder could not be loaded: the file at fault and what is wrong with it.
/// Start-up stops with it (as a `StartupError` of cause `.locales`).
public struct LocalesError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file or folder at fault, when one is.
    public let path: String?
    /// What is wrong ("direction must be ltr or rtl").
    public let reason: String

    /// An error about `path` (if any) with `reason`; `underlying` is the decoding error
    /// behind it (not compared).
    public init(path: String? = nil, _ reason: String, underlying: (any Error & Sendable)? = nil) {
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    /// The decoding error behind a file that is not a locale file.
    public let underlying: (any Error & Sendable)?

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }

    public static func == (left: LocalesError, right: LocalesError) -> Bool {
        left.path == right.path && left.reason == right.reason
    }
}
