// SPDX-License-Identifier: Apache-2.0
/// The URL paths of the library's own pages and files, below the base path: one place
/// for the routes that answer them and the views that link to them.
package enum TabPaths {
    /// The web app manifest.
    package static let manifest = "/manifest.webmanifest"
    /// The service worker.
    package static let worker = "/sw.js"

    /// The canonical path of a location in a tab.
    package static func tab(_ tabID: String, _ location: String) -> String {
        if location.isEmpty { return "/tabs/\(tabID)" }
        // A search tab's remembered query.
        if location.hasPrefix("?") { return "/tabs/\(tabID)\(location)" }
        return "/tabs/\(tabID)/\(location)"
    }
}
