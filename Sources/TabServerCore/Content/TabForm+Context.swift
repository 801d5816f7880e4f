// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel

extension TabForm {
    /// A form posting to `action` that shows the refused post of `context` again, if its
    /// page is being shown for one: fields get the values sent and their messages, and a
    /// field the app's check named on no input of the form goes in `message`.
    public init(action: String, submitLabel: String, context: RequestContext) {
        self.init(action: action, submitLabel: submitLabel)
        submission = context.submission
    }
}
