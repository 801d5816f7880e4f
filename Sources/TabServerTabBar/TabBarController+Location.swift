// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// Most segments a remembered location may have.
    public static let maxLocationSegments = 16
    /// Most bytes a remembered location may have.
    public static let maxLocationBytes = 256

    /// Whether `location` may be remembered for a tab: "" (the root), or up to 16
    /// `/`-separated segments of `A-Z a-z 0-9 . _ ~ -`, none empty, `.` or `..`, at
    /// most 256 bytes. Such a path needs no escaping in a URL and cannot climb out of
    /// the tab, so it is safe to redirect to; anything else is treated as the root.
    ///
    /// A search tab remembers its last query instead: `?` and a percent-encoded query of
    /// `A-Z a-z 0-9 . _ ~ - % = & +`, at most 256 bytes (`?q=milk%20tea`).
    public static func isValidLocation(_ location: String) -> Bool {
        if location.hasPrefix("?") { return isValidQueryLocation(location) }
        return location.isEmpty
            || PathSyntax.isValid(
                location, maxSegments: maxLocationSegments, maxBytes: maxLocationBytes,
                allowed: PathSyntax.isUnreserved)
    }

    /// Where the visitor was in this tab ("" = its root); an invalid stored value
    /// counts as the root.
    public func location(ofTab id: String, in state: TabBarState) -> String {
        guard let location = state.locations[id], Self.isValidLocation(location) else { return "" }
        return location
    }

    /// Where `GET /` should send the visitor: the selected tab and its location.
    /// A child of a declared group that is not on its group's stack means the group's
    /// list was on screen: the target is then the group (its page, `/tabs/<group>`).
    public func restorationTarget(_ state: TabBarState) -> (tabID: String, location: String) {
        let id = selectedTabID(state)
        if let group = selectedGroupID(state), groupStackTabID(group, in: state) != id { return (group, "") }
        return (id, location(ofTab: id, in: state))
    }

    private static func isValidQueryLocation(_ location: String) -> Bool {
        location.utf8.count > 1 && location.utf8.count <= maxLocationBytes
            && location.utf8.dropFirst().allSatisfy { byte in
                PathSyntax.isUnreserved(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "=")
                    || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "+")
            }
    }
}
