// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerCrypto
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A response on its way out of one connection, and how much of it is sent: `bytes` (the
/// head, then a body given as bytes or what a stream wrote), followed by either a shared
/// body (a static file's bytes, referenced, not copied) or a memory file (a large static
/// file, sent with `sendfile`). Partial writes leave the rest for the next writable event.
struct OutboundBuffer {
    /// The head and the bytes after it; its capacity is kept from response to response.
    var bytes: [UInt8] = []
    private var bytesSent = 0
    /// A static body sent from memory after `bytes`.
    private var shared: SharedBytes?
    private var sharedSent = 0
    /// A static body sent with `sendfile` after `bytes`.
    private var file: MemoryFile?
    private var fileSent = 0

    /// Whether part of the response is still unsent.
    var hasPending: Bool {
        bytesSent < bytes.count || (shared.map { sharedSent < $0.count } ?? false)
            || (file.map { fileSent < $0.count } ?? false)
    }

    /// Empties it for a new response (keeping the capacity of `bytes`).
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        forgetSent()
    }

    /// Empties it for a new response and hands out `bytes` (empty, its capacity kept)
    /// for the caller to fill and give back with `load`: built in a local, the head
    /// costs one access to the connection instead of one per append.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        taken.removeAll(keepingCapacity: true)
        forgetSent()
        return taken
    }

    /// Forgets the body and how much was sent.
    private mutating func forgetSent() {
        bytesSent = 0
        shared = nil
        sharedSent = 0
        file = nil
        fileSent = 0
    }

    /// The response to send: `bytes`, then `body` if any (from `file` when there is one).
    mutating func load(_ bytes: [UInt8], body: SharedBytes?, file: MemoryFile?) {
        self.bytes = bytes
        if let body {
            if let file { self.file = file } else { shared = body }
        }
    }

    /// Bytes of `bytes` kept for the next response once one is sent; a larger buffer is
    /// freed, so 10,000 kept-alive connections do not each hold their largest page.
    static let retainedCapacity = 16 * 1024

    /// Sends what it can without blocking: bytes in memory with one `writev`, a memory
    /// file with `sendfile` after its head (sent with MSG_MORE so the head and the first
    /// body bytes still leave in one segment). What `send` returns: bytes written, or -1
    /// with `errno`.
    private func transmit(to descriptor: Int32) -> Int {
        if let file {
            if bytesSent < bytes.count {
                return bytes.withUnsafeBytes { head in
                    send(
                        descriptor, head.baseAddress! + bytesSent, head.count - bytesSent,
                        Int32(MSG_NOSIGNAL | MSG_MORE))
                }
            }
            return tabserver_sendfile(descriptor, file.descriptor, Int64(fileSent), file.count - fileSent)
        }
        return bytes.withUnsafeBytes { head in
            withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
                var count = 0
                if bytesSent < head.count {
                    vectors[0] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + bytesSent),
                        iov_len: head.count - bytesSent)
                    count = 1
                }
                if let shared, sharedSent < shared.count {
                    vectors[count] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: shared.baseAddress + sharedSent),
                        iov_len: shared.count - sharedSent)
                    count += 1
                }
                return writev(descriptor, vectors.baseAddress, Int32(count))
            }
        }
    }

    /// How far `write(to:)` got.
    enum Progress {
        /// Everything is sent.
        case sent
        /// The socket buffer is full: the rest waits until it is writable.
        case wouldBlock
        /// The send failed (`errno` says why): the connection is lost.
        case failed
    }

    /// Writes without blocking until everything is sent or the socket is full. Once all
    /// is sent it lets go of the static body and of a buffer past `retainedCapacity`.
    mutating func write(to descriptor: Int32) -> Progress {
        while hasPending {
            let written = transmit(to: descriptor)
            if written < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
            }
            advance(by: written)
        }
        shared = nil
        file = nil
        if bytes.capacity > Self.retainedCapacity { bytes = [] }
        return .sent
    }

    /// Writes over TLS like `write(to:)` over the socket: the bytes, then a shared body,
    /// each as records of at most 16 KiB (a memory file is never loaded for TLS).
    mutating func write(to tls: TLSSession) -> Progress {
        // A head and a body that fit one record go as one: two writes would be two records,
        // two system calls and two segments (a cached page's body is shared, its head not).
        if bytesSent < bytes.count, let shared, sharedSent < shared.count,
            bytes.count - bytesSent + shared.count - sharedSent <= Self.tlsRecordSize
        {
            bytes.append(
                contentsOf: UnsafeRawBufferPointer(
                    start: shared.baseAddress + sharedSent, count: shared.count - sharedSent))
            sharedSent = shared.count
        }
        while hasPending {
            let progress: TLSProgress
            if bytesSent < bytes.count {
                let sent = bytesSent
                progress = bytes.withUnsafeBytes { tls.write(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            } else if let shared, sharedSent < shared.count {
                progress = tls.write(
                    UnsafeRawBufferPointer(start: shared.baseAddress + sharedSent, count: shared.count - sharedSent))
            } else {
                break  // only a memory file is left, which TLS never gets
            }
            switch progress {
            case .done(let written): advance(by: written)
            case .wantWrite: return .wouldBlock
            case .wantRead, .closed, .failed: return .failed
            }
        }
        shared = nil
        file = nil
        if bytes.capacity > Self.retainedCapacity { bytes = [] }
        return .sent
    }

    /// The most plaintext one TLS record carries.
    private static let tlsRecordSize = 16 * 1024

    /// Counts `written` bytes (what `transmit` returned) as sent: `bytes` first, then the body.
    private mutating func advance(by written: Int) {
        let fromBytes = min(written, bytes.count - bytesSent)
        bytesSent += fromBytes
        if file != nil {
            fileSent += written - fromBytes
        } else {
            sharedSent += written - fromBytes
        }
    }
}
