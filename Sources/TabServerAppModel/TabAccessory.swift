// SPDX-License-Identifier: Apache-2.0
import TabServerMustache

/// A strip above the tab bar that stays while the visitor moves between tabs: UIKit's
/// `UITabAccessory` (`UITabBarController.bottomAccessory`), SwiftUI's
/// `.tabViewBottomAccessory` (a now-playing bar, a download in progress). The content
/// provider gives one per request (`TabContentProvider.accessory(for:)`), nil for none.
///
/// It is rendered from `Templates/accessories/<template>.mustache` with `context`, plus
/// `csrf`, `returnPath` (the page it is on) and `actions` (each action's form URL by
/// name), inside an `<aside>` named `label`. It shows on the tab pages and More, above the
/// bar, and inline beside it while the bar is minimized (`minimizeBehavior`); pages that
/// hide the bar (`TabPage.hidesBottomBar`) hide it too. Its forms post to
/// `actions.<name>`: the library checks the CSRF token, runs the action and answers 303
/// back to the page the form was on.
///
/// ```swift
/// var content = TabContent()
/// content.bottomAccessory { request in
///     guard let track = request.visitorValues["track"] else { return nil }
///     let playing = request.visitorValues["playing"] == "1"
///     var strip = TabAccessory(
///         label: "Now Playing", template: "now-playing",
///         context: ["title": .string(track), "playing": .bool(playing)])
///     strip.cacheKey = "now-playing/\(track)/\(playing)"
///     strip.actions["toggle"] = { request in
///         var values = request.visitorValues
///         values["playing"] = playing ? "0" : "1"
///         return values
///     }
///     return strip
/// }
/// ```
public struct TabAccessory: Sendable {
    /// What an accessory's form does: the app's values for this visitor afterwards
    /// (`RequestContext.visitorValues`, stored with the session), or nil to leave them.
    /// A thrown `HTTPError` is answered as it is (400, 409, …); any other error is a 500,
    /// logged. Runs on the engine's thread: keep it quick.
    public typealias Action = @Sendable (TabAccessoryRequest) throws -> [String: String]?

    /// The accessible name of the strip's region (`<aside aria-label>`), in the visitor's
    /// language, e.g. "Now Playing".
    public var label: String
    /// The template's name below `Templates/accessories/` (without `.mustache`).
    public var template: String
    /// Values for the template.
    public var context: MustacheValue
    /// Set when the strip is the same for every visitor with the same values
    /// (`visitorValues`): a key naming what it shows. Pages with the accessory are then
    /// still rendered once per arrangement and reused; nil renders them per request.
    public var cacheKey: String?
    /// The strip's forms, by the name in their URL (`actions.toggle` posts to
    /// `/accessory/toggle`): letters, digits and `-`.
    public var actions: [String: Action] = [:]

    /// An accessory rendered from `Templates/accessories/<template>.mustache`.
    public init(label: String, template: String, context: MustacheValue = [:], cacheKey: String? = nil) {
        self.label = label
        self.template = template
        self.context = context
        self.cacheKey = cacheKey
    }
}
