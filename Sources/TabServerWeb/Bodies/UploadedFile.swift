// SPDX-License-Identifier: Apache-2.0

/// A file sent in a `multipart/form-data` body.
public struct UploadedFile: Sendable, Hashable {
    /// The form field it came in.
    public var fieldName: String
    /// The name the browser gave, reduced to a safe base name (`FileName.sanitized`):
    /// no directories, no control characters, at most 255 bytes; "upload" when nothing
    /// usable is left.
    public var fileName: String
    /// The part's `Content-Type`, or `application/octet-stream` when it names none.
    public var contentType: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// A file with the given parts (the file name is taken as given).
    public init(fieldName: String, fileName: String, contentType: String, bytes: [UInt8]) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.bytes = bytes
    }
}
