// SPDX-License-Identifier: Apache-2.0

/// Bounds on decoding a request body, beyond the engine's `--max-body` (which bounds
/// the bytes read at all). Each is checked before the work it bounds is done, so a
/// hostile body costs at most about its own length.
public struct BodyLimits: Sendable, Hashable {
    /// Fields of a form (url-encoded pairs or multipart parts).
    public var maxFields: Int
    /// Bytes of one multipart part's content.
    public var maxPartSize: Int
    /// Bytes of one multipart part's header block.
    public var maxPartHeaderSize: Int
    /// Nesting of JSON arrays and objects.
    public var maxJSONDepth: Int
    /// Bytes of a JSON body.
    public var maxJSONSize: Int

    /// The defaults: 256 fields, 1 MiB parts with 8 KiB of headers, JSON up to 64 KiB
    /// and 32 levels deep.
    public init(
        maxFields: Int = 256, maxPartSize: Int = 1 << 20, maxPartHeaderSize: Int = 8192, maxJSONDepth: Int = 32,
        maxJSONSize: Int = 64 << 10
    ) {
        self.maxFields = maxFields
        self.maxPartSize = maxPartSize
        self.maxPartHeaderSize = maxPartHeaderSize
        self.maxJSONDepth = maxJSONDepth
        self.maxJSONSize = maxJSONSize
    }
}
