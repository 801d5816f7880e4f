// SPDX-License-Identifier: Apache-2.0

/// The decoded fields of a form post (`application/x-www-form-urlencoded` or
/// `multipart/form-data`), in the order sent, with the files of a multipart one.
///
/// ```swift
/// let form = try request.decodeForm()
/// let title = form.value("title") ?? ""
/// let photo = form.file("photo")  // bytes, sanitized file name, content type
/// ```
public struct FormData: Sendable {
    /// Text fields, in order. A multipart file field is not among them: see `files`.
    public var fields: [(name: String, value: String)]
    /// File fields of a multipart body, in order.
    public var files: [UploadedFile]

    /// A form with the given parts.
    public init(fields: [(name: String, value: String)] = [], files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }

    /// The first text field of that name.
    public func value(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every text field of that name, in order (a repeated field, a multi-select).
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The first file field of that name.
    public func file(_ name: String) -> UploadedFile? {
        files.first { $0.fieldName == name }
    }

    /// The form without the library's own fields (`csrf`, `confirmed`).
    public var withoutLibraryFields: FormData {
        var form = self
        form.fields.removeAll { $0.name == "csrf" || $0.name == "confirmed" }
        return form
    }
}
