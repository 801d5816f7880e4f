// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerTabBar
import TabServerWeb

/// What an action knows about the form posted to it.
public struct TabActionRequest: Sendable {
    /// The tab, its title already in the visitor's language.
    public let tab: Tab
    /// The path below the tab's root, split at `/` (`["42", "edit"]`).
    public let location: [Substring]
    /// What the action's pattern captured (`{id}` in `"{id}/edit"`); empty for a
    /// provider that matches locations itself.
    public internal(set) var parameters: RouteParameters
    /// The request as it arrived, for a body that is not a form (`decodeJSON`).
    public let request: HTTPRequest
    /// The visitor's UI language (BCP 47 code, e.g. "de"): give notices in it.
    public let language: String
    /// The signed-in user (`--identity-header`), nil for an anonymous visitor.
    public let user: String?
    /// The app's base path ("" or e.g. "/app").
    public let basePath: String
    /// Values this app keeps for the visitor (`Session.appValues`), as they were when the
    /// form was posted.
    public let visitorValues: [String: String]
    /// Whether the visitor confirmed the action's question (see `TabAction`).
    public let isConfirmed: Bool
    private let decodedForm: FormData

    init(
        tab: Tab, location: [Substring], request: HTTPRequest, form: FormData, language: String, user: String?,
        basePath: String, visitorValues: [String: String]
    ) {
        self.tab = tab
        self.location = location
        self.request = request
        self.language = language
        self.user = user
        self.basePath = basePath
        self.visitorValues = visitorValues
        self.decodedForm = form
        parameters = RouteParameters()
        isConfirmed = form.value("confirmed") == "1"
    }

    /// The posted form: its text fields and (multipart) files. The library's own fields
    /// (`csrf`, `confirmed`) are left out.
    public var form: FormData {
        var form = decodedForm
        form.fields.removeAll { $0.name == "csrf" || $0.name == "confirmed" }
        return form
    }

    /// A test's or a tool's request: everything given.
    public static func make(
        tab: Tab, location: [Substring], form: FormData = FormData(), request: HTTPRequest? = nil,
        language: String = "en", user: String? = nil, basePath: String = "", visitorValues: [String: String] = [:]
    ) -> TabActionRequest {
        TabActionRequest(
            tab: tab, location: location, request: request ?? HTTPRequest(method: .post, path: "/"), form: form,
            language: language, user: user, basePath: basePath, visitorValues: visitorValues)
    }
}
