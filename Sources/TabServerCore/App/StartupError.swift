// SPDX-License-Identifier: Apache-2.0
/// Why the server refused to start, in words that say what to fix
/// ("Templates/tabs/music.mustache:3:7: unclosed section 'items'").
public struct StartupError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
