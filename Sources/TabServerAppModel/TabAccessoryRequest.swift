// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import TabServerWeb

/// What a content provider knows when it gives the bottom accessory (`TabAccessory`) or
/// runs one of its actions.
public struct TabAccessoryRequest: Sendable {
    /// The tab selected for the page the accessory is shown on (or posted from), its
    /// title already in the visitor's language.
    public let selectedTab: Tab
    /// The visitor's UI language (BCP 47 code, e.g. "de").
    public let language: String
    /// The signed-in user (`--identity-header`), nil for an anonymous visitor.
    public let user: String?
    /// The app's base path ("" or e.g. "/app").
    public let basePath: String
    /// Values this app keeps for the visitor (`Session.appValues`).
    public let visitorValues: [String: String]
    /// The posted form of an action (its text fields; the library's `csrf` and `return`
    /// left out); empty when the accessory is being shown.
    public let form: FormData

    /// A request with everything given (tests, tools).
    public init(
        selectedTab: Tab, language: String = "en", user: String? = nil, basePath: String = "",
        visitorValues: [String: String] = [:], form: FormData = FormData()
    ) {
        self.selectedTab = selectedTab
        self.language = language
        self.user = user
        self.basePath = basePath
        self.visitorValues = visitorValues
        self.form = form
    }
}

extension TabAccessoryRequest {
    /// The value of `type` the app keeps for this visitor (see `VisitorValue`).
    public func visitorValue<Value: VisitorValue>(_ type: Value.Type) -> Value? {
        VisitorValueCoding.decode(type, from: visitorValues)
    }

    /// The visitor's values with `value` set (nil removes it): what an accessory's action
    /// returns to store it.
    public func settingVisitorValue<Value: VisitorValue>(_ value: Value?) -> [String: String] {
        var values = visitorValues
        values[Value.key] = value.flatMap(VisitorValueCoding.encode)
        return values
    }
}
