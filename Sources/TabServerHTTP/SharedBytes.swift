// SPDX-License-Identifier: Apache-2.0
/// Immutable bytes at a stable address, so the engine can send them without a copy.
///
/// `@unchecked Sendable` is safe: the memory is written once in `init` and never again,
/// and it is freed only in `deinit`, after the last reference (including the one each
/// in-flight response holds through its free callback) is gone.
public final class SharedBytes: @unchecked Sendable, Hashable {
    private let pointer: UnsafeMutableRawBufferPointer

    /// The first byte. Stable for the object's lifetime, so an engine may hand it to a
    /// socket write as long as it holds a reference to the object.
    public var baseAddress: UnsafeRawPointer { UnsafeRawPointer(pointer.baseAddress!) }

    /// Copies `bytes` into memory owned by this object.
    public init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        pointer = memory
        count = bytes.count
    }

    /// `count` bytes written once by `initialize`, which gets the memory (of exactly that
    /// size) and must fill all of it: a page assembled in place costs one copy, not a
    /// copy into an array and another into the shared memory.
    public init(count: Int, initializingWith initialize: (UnsafeMutableRawBufferPointer) -> Void) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        initialize(UnsafeMutableRawBufferPointer(rebasing: memory[0..<count]))
        pointer = memory
        self.count = count
    }

    deinit { pointer.deallocate() }

    /// The number of bytes.
    public let count: Int

    /// A copy as an array.
    public var array: [UInt8] { Array(UnsafeRawBufferPointer(rebasing: pointer[0..<count])) }

    public static func == (lhs: SharedBytes, rhs: SharedBytes) -> Bool {
        lhs === rhs || lhs.array == rhs.array
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(count) }
}
