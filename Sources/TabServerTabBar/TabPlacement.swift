// SPDX-License-Identifier: Apache-2.0
/// Where a tab may appear and what the visitor may do with it: UIKit's
/// `UITab.Placement` (`preferredPlacement`), SwiftUI's `TabPlacement`.
///
/// | placement | bar and More | moved in Edit | hidden in Edit |
/// |---|---|---|---|
/// | `automatic` | yes | when `isCustomizable` | when `allowsHiding` |
/// | `fixed` | at its model position | no | no |
/// | `movable` | yes | yes | no |
/// | `pinned` | the bar's trailing end (before a search tab), never in More | no | no |
/// | `sidebarOnly` | never: only in the sidebar (1024 px and wider) | no | no |
/// | `optional` | hidden until the visitor shows it in Edit | yes | yes |
public enum TabPlacement: String, Sendable, Hashable, Codable, CaseIterable {
    /// The tab follows `isCustomizable` and `allowsHiding` (UIKit's `.automatic` and `.default`).
    case automatic
    /// Stays at its model position; cannot be moved or hidden (`.fixed`).
    case fixed
    /// Can be moved but not hidden (`.movable`).
    case movable
    /// Always in the bar, at its trailing end; cannot be moved or hidden (`.pinned`).
    case pinned
    /// Only in the sidebar layout, never in the bar or More (`.sidebarOnly`).
    case sidebarOnly
    /// Hidden until the visitor shows it in Edit; can be moved and hidden again (`.optional`).
    case optional
}
