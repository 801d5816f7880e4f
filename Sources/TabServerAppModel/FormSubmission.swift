// SPDX-License-Identifier: Apache-2.0
import TabServerWeb

/// A form that was sent and refused (422): its fields as sent and what is wrong with
/// them, so its page shows it again as the visitor left it (`TabForm` fills both in).
public struct FormSubmission: Sendable {
    /// The fields as sent (the library's own, `csrf` and `confirmed`, left out).
    public let fields: [(name: String, value: String)]
    /// What is wrong, field by field.
    public let errors: [FieldError]

    package init(fields: [(name: String, value: String)], errors: [FieldError]) {
        self.fields = fields
        self.errors = errors
    }

    /// The value sent for `name`.
    public func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The message for `name`, when it is at fault.
    public func error(_ name: String) -> String? { errors.first { $0.field == name }?.message }
}
