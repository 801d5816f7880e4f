// SPDX-License-Identifier: Apache-2.0
import TabServerMustache

/// A form inside a tab page, for the library's `partials/form` template: fields with
/// their labels, values and messages, posted with the visitor's CSRF token to an action
/// of the tab. Put its `context` in the page's context and render it with
/// `{{#form}}{{> partials/form}}{{/form}}`. When its post was refused (an action threw a
/// `FieldError` or its form did not decode: 422), the page is shown again with the form
/// made from `context.submission`: each field gets the value sent and its message.
///
/// ```swift
/// var form = TabForm(action: context.basePath + "/tabs/notes/new", submitLabel: "Save", context: context)
/// form.add("title", label: "Title")                  // the value sent, and its error, if any
/// form.add("body", label: "Note", kind: .multiline)
/// return TabPage(title: "New note", parentLocation: "", context: ["form": form.context])
/// ```
public struct TabForm: Sendable {
    /// How a field is drawn.
    public enum Kind: String, Sendable {
        case text, multiline, search, email, number, password, file, checkbox
    }

    /// One field of the form.
    public struct Field: Sendable {
        public var name: String
        public var label: String
        public var value: String
        public var kind: Kind
        public var error: String?
        /// A line of help under the field.
        public var hint: String?
    }

    /// Where the form posts (with the base path: `request.basePath + "/tabs/notes/new"`).
    public var action: String
    /// The label of the submit button.
    public var submitLabel: String
    /// The fields, in order.
    public var fields: [Field] = []
    /// A message above the fields (nil when there is none), e.g. "Check the fields below."
    public var message: String?
    /// The refused post this form shows again (nil: a fresh form).
    public var submission: FormSubmission?

    /// An empty form posting to `action`.
    public init(action: String, submitLabel: String, message: String? = nil) {
        self.action = action
        self.submitLabel = submitLabel
        self.message = message
    }

    /// Adds a field: its value and message are the refused post's, when there is one
    /// and none are given.
    public mutating func add(
        _ name: String, label: String, value: String? = nil, kind: Kind = .text, error: String? = nil,
        hint: String? = nil
    ) {
        fields.append(
            Field(
                name: name, label: label, value: value ?? submission?.value(name) ?? "", kind: kind,
                error: error ?? submission?.error(name), hint: hint))
    }

    /// Whether any field has a message.
    public var hasErrors: Bool { fields.contains { $0.error != nil } }

    /// The values `partials/form` renders.
    public var context: MustacheValue {
        // A message of the refused post for no field of this form shows above the fields.
        let names = Set(fields.map(\.name))
        let unplaced = submission?.errors.first { !names.contains($0.field) }?.message
        return .object([
            "action": .string(action), "submitLabel": .string(submitLabel),
            "message": (message ?? unplaced).map(MustacheValue.string) ?? .null,
            "multipart": .bool(fields.contains { $0.kind == .file }),
            "fields": .array(
                fields.map { field in
                    .object([
                        "name": .string(field.name), "label": .string(field.label), "value": .string(field.value),
                        "type": .string(field.kind == .multiline ? "text" : field.kind.rawValue),
                        "multiline": .bool(field.kind == .multiline), "checkbox": .bool(field.kind == .checkbox),
                        "checked": .bool(field.kind == .checkbox && !field.value.isEmpty),
                        "error": field.error.map(MustacheValue.string) ?? .null,
                        "hint": field.hint.map(MustacheValue.string) ?? .null,
                    ])
                }),
        ])
    }
}
