// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// A page that is loaded without holding an engine thread. The app answers the
/// request once the loader returns: its engine thread serves other connections
/// meanwhile, and the loader runs as a Swift task (so it may `await` other work, or
/// block briefly on a database call of its own).
public struct TabPageLoader: Sendable {
    let load: @Sendable (TabPageRequest) async throws -> TabPage?

    /// A loader running `load`: nil is a 404 that still shows the tab bar; a thrown
    /// `HTTPError` its error page.
    public init(_ load: @escaping @Sendable (TabPageRequest) async throws -> TabPage?) {
        self.load = load
    }
}
