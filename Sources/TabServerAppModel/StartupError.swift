// SPDX-License-Identifier: Apache-2.0
/// Why the server refused to start, in words that say what to fix
/// ("Templates/tabs/music.mustache:3:7: unclosed section 'items'"): what could not be
/// set up (`cause`), the file or folder at fault (`path`), the reason, and the error
/// underneath when another library gave one.
///
/// ```swift
/// do {
///     try await app.run()
/// } catch let error as StartupError where error.cause == .sessions {
///     print("check --sessions:", error.reason)
/// }
/// ```
public struct StartupError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What could not be set up.
    public enum Cause: String, Sendable {
        /// A setting: a flag, an environment variable, a value of `AppConfiguration`.
        case configuration
        /// The tab definition (`tabs.json`).
        case tabs
        /// The templates: a syntax error, a missing or unknown template.
        case templates
        /// The locale files.
        case locales
        /// The static files (`Public/`).
        case publicFiles
        /// The session store.
        case sessions
        /// Web Push: the VAPID key.
        case push
        /// The listener: the address, the port, TLS.
        case listener
        /// The app's own set-up (`StartupError("…")` from an app).
        case app
    }

    /// What could not be set up.
    public let cause: Cause
    /// The file or folder at fault, nil when none is.
    public let path: String?
    /// Why, in words that say what to fix.
    public let reason: String
    /// The error another library gave, when there was one (not compared by `==`).
    public let underlying: (any Error & Sendable)?

    /// A refusal of `cause`, at `path` when a file or folder is at fault.
    public init(_ cause: Cause, path: String? = nil, _ reason: String, underlying: (any Error & Sendable)? = nil) {
        self.cause = cause
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    /// An app's own refusal: `message` as its reason.
    public init(_ message: String) {
        self.init(.app, message)
    }

    /// "path: reason", or the reason alone.
    public var message: String { path.map { "\($0): \(reason)" } ?? reason }

    public var description: String { message }

    public static func == (left: StartupError, right: StartupError) -> Bool {
        left.cause == right.cause && left.path == right.path && left.reason == right.reason
    }
}
