// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A sealed in-memory copy (memfd) of a static file's bytes, so the loop sends the body
/// with `sendfile(2)`: the kernel takes the pages by reference instead of copying the
/// bytes in from user memory on each response. Sealed, the copy cannot change, so what
/// is sent always matches the ETag the head names.
final class MemoryFile: Sendable {
    /// Bodies at least this large are sent from a memory file; below it one `writev` with
    /// the head costs less than the extra system call.
    static let threshold = 16 * 1024

    let descriptor: Int32
    let count: Int

    /// Copies `bytes`; nil when the kernel refuses (no memfd: the bytes are then written
    /// from memory as before).
    init?(_ bytes: SharedBytes) {
        let descriptor = tabserver_memory_file(bytes.baseAddress, bytes.count)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        count = bytes.count
    }

    deinit { close(descriptor) }
}
