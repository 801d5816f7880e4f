// SPDX-License-Identifier: Apache-2.0

/// How an action ends, answered the way Rails and Hotwire answer forms: 303 See Other
/// on success (so Back and reload never post again), 422 with the form on invalid input.
public enum TabActionResult: Sendable {
    /// Done: 303 to `location` in the same tab ("" for its root, e.g. "42" for
    /// `/tabs/notes/42`), which the tab remembers as its place, as a navigation
    /// controller keeps the pushed page; `notice` is shown once on the page it lands on
    /// (give it in the visitor's language: `context.language`). `visitorValues`, when
    /// given, replace the values the app keeps for this visitor (a setting: see
    /// `RequestContext.visitorValues`), stored with the session.
    case redirect(to: String, notice: String? = nil, visitorValues: [String: String]? = nil)
    /// The input is not valid: `page` (the form again, with its field messages and the
    /// values sent) is shown with 422 Unprocessable Content, and nothing the request
    /// changed is stored.
    case invalid(TabPage)
}
