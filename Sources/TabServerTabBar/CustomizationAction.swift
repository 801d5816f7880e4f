// SPDX-License-Identifier: Apache-2.0
/// One edit on the customize page (More → Edit); each is a form post.
public enum CustomizationAction: Sendable, Hashable {
    /// Move the tab one place up, past its nearest customizable neighbour.
    case moveUp(String)
    /// Move the tab one place down, past its nearest customizable neighbour.
    case moveDown(String)
    /// Move a tab from More into the last customizable slot of the compact bar; the
    /// tab there becomes the first tab of More (UIKit's drop onto a bar item).
    case moveToBar(String)
    /// Swap a bar tab with the first customizable tab of More.
    case moveToMore(String)
    /// Hide a tab that allows it (UIKit's `allowsHiding`): it leaves the bar, More and the sidebar.
    case hide(String)
    /// Show a hidden tab again, where its place in the order is.
    case show(String)
    /// Back to the model's default order and hidden tabs.
    case reset
    /// A whole new order, posted by the drag-and-drop enhancement: a permutation of
    /// all tab ids with every non-customizable tab at its model position.
    case setOrder([String])
}
