// SPDX-License-Identifier: Apache-2.0
import CHiredis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blocking connection to a Redis server, owning a hiredis context.
///
/// Not thread-safe: use it from one thread at a time (`RedisClient` pools connections
/// for concurrent callers). After a connection-level failure (timeout, closed socket)
/// it is broken for good: hiredis cannot tell which reply a late answer belongs to. So
/// it is after a `READONLY` error reply: the server has become a replica (a master
/// demoted in a failover), and a client of masters has nothing more to say to it.
///
/// ```swift
/// let connection = try RedisConnection(configuration: RedisConfiguration(host: "127.0.0.1"))
/// _ = try connection.command(["SET", "greeting", "hello"])
/// let reply = try connection.command(["GET", "greeting"])   // .bulkString("hello")
/// ```
public final class RedisConnection {
    /// The hiredis context; freed in `deinit`, never handed out.
    private let context: UnsafeMutablePointer<redisContext>
    /// "host:port", for error messages.
    public let endpoint: String
    /// How long a command may wait for its reply (for error messages).
    private let commandTimeout: Duration
    /// Set after a connection-level failure; every later command fails at once.
    public private(set) var isBroken = false
    /// When the pool last had this connection back (see `isReusable(now:)`).
    var lastUsed = ContinuousClock.now
    /// The command being sent, reused between commands.
    private var outgoing: [UInt8] = []
    /// Where replies are received before hiredis's reader parses them.
    private var incoming = [UInt8](repeating: 0, count: 16 * 1024)

    /// Connects within `configuration.connectTimeout`, sets the per-command timeout and
    /// selects `configuration.database` (when not 0).
    public init(configuration: RedisConfiguration) throws(RedisError) {
        let endpoint = configuration.endpoint
        guard
            let context = redisConnectWithTimeout(
                configuration.host, Int32(clamping: configuration.port), timeval(configuration.connectTimeout))
        else {
            throw RedisError(.connectionFailed, endpoint: endpoint, "cannot allocate a connection")
        }
        if context.pointee.err != 0 {
            let message = Self.errorText(context)
            redisFree(context)
            throw RedisError(.connectionFailed, endpoint: endpoint, "cannot connect: \(message)")
        }
        guard redisSetTimeout(context, timeval(configuration.commandTimeout)) == REDIS_OK else {
            let message = Self.errorText(context)
            redisFree(context)
            throw RedisError(.connectionFailed, endpoint: endpoint, "cannot set the command timeout: \(message)")
        }
        // Not inherited by child processes: a forked helper must not keep the socket open.
        let flags = fcntl(context.pointee.fd, F_GETFD)
        if flags >= 0 { _ = fcntl(context.pointee.fd, F_SETFD, flags | FD_CLOEXEC) }
        self.context = context
        self.endpoint = endpoint
        self.commandTimeout = configuration.commandTimeout

        // From here `deinit` frees the context if set-up fails.
        if configuration.database != 0 {
            let reply = try command(["SELECT", String(configuration.database)])
            guard reply == .status("OK") else {
                throw RedisError(
                    .connectionFailed, endpoint: endpoint,
                    "SELECT \(configuration.database) refused: \(reply.errorMessage ?? "\(reply)")")
            }
        }
    }

    deinit { redisFree(context) }

    /// The socket, to wait on several connections at once (a sharded subscriber).
    var descriptor: Int32 { context.pointee.fd }

    /// Sends one command (arguments as text) and returns its reply.
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Sends one command (binary-safe arguments) and returns its reply. An error reply
    /// is returned, not thrown, except `READONLY` (`.readOnlyReplica`); that, a timeout
    /// or a broken connection throws, and leaves this connection broken.
    ///
    /// hiredis connects and parses replies; the command is framed here and written with
    /// `send(MSG_NOSIGNAL)`, so a server that has gone away cannot raise SIGPIPE and no
    /// signal mask needs changing per command (hiredis 0.14 would `write(2)`).
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        guard !arguments.isEmpty else {
            throw RedisError(.protocolError, endpoint: endpoint, "a command needs at least its name")
        }
        guard !isBroken else {
            throw RedisError(.connectionLost, endpoint: endpoint, "connection already failed")
        }
        frame(arguments)
        try sendOutgoing()
        let reply = try readReply()
        if let error = readOnlyFailure(reply) { throw error }
        return reply
    }

    /// Sends several commands in one write and reads their replies, in order (a
    /// pipeline: one round trip for all). Error replies are returned, except `READONLY`,
    /// which fails them all once every reply is read; that, a timeout or a broken
    /// connection throws and leaves this connection broken.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        try sendPipeline(commands)
        return try readReplies(commands.count)
    }

    /// The first half of `pipeline`: sends `commands` in one write, reads nothing.
    func sendPipeline(_ commands: [[[UInt8]]]) throws(RedisError) {
        guard !isBroken else {
            throw RedisError(.connectionLost, endpoint: endpoint, "connection already failed")
        }
        outgoing.removeAll(keepingCapacity: true)
        for command in commands {
            guard !command.isEmpty else {
                throw RedisError(.protocolError, endpoint: endpoint, "a command needs at least its name")
            }
            appendFrame(command)
        }
        try sendOutgoing()
    }

    /// The second half of `pipeline`: the replies to the `count` commands sent last.
    func readReplies(_ count: Int) throws(RedisError) -> [RedisReply] {
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count { replies.append(try readReply()) }
        for reply in replies {
            if let error = readOnlyFailure(reply) { throw error }
        }
        return replies
    }

    /// For a `READONLY` error reply: the error to throw, this connection broken.
    private func readOnlyFailure(_ reply: RedisReply) -> RedisError? {
        guard let message = reply.errorMessage, message.hasPrefix("READONLY") else { return nil }
        isBroken = true
        return RedisError(.readOnlyReplica, endpoint: endpoint, "the server is a read-only replica now: \(message)")
    }

    /// Writes `arguments` into `outgoing` as one RESP array of bulk strings.
    private func frame(_ arguments: [[UInt8]]) {
        outgoing.removeAll(keepingCapacity: true)
        appendFrame(arguments)
    }

    /// Appends `arguments` to `outgoing` as one RESP array of bulk strings.
    private func appendFrame(_ arguments: [[UInt8]]) {
        appendHeader(UInt8(ascii: "*"), arguments.count)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.count)
            outgoing.append(contentsOf: argument)
            outgoing.append(13)
            outgoing.append(10)
        }
    }

    private func appendHeader(_ kind: UInt8, _ count: Int) {
        outgoing.append(kind)
        outgoing.append(contentsOf: String(count).utf8)
        outgoing.append(13)
        outgoing.append(10)
    }

    private func sendOutgoing() throws(RedisError) {
        let descriptor = context.pointee.fd
        var sent = 0
        while sent < outgoing.count {
            let written = outgoing.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                sent += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                throw failure(errorNumber: written < 0 ? errno : EPIPE)
            }
        }
    }

    /// Reads until hiredis's reader has one complete reply.
    private func readReply() throws(RedisError) -> RedisReply {
        let reader = context.pointee.reader!
        let descriptor = context.pointee.fd
        while true {
            var raw: UnsafeMutableRawPointer? = nil
            guard redisReaderGetReply(reader, &raw) == REDIS_OK else {
                isBroken = true
                let message = withUnsafeBytes(of: reader.pointee.errstr) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                throw RedisError(.protocolError, endpoint: endpoint, message)
            }
            if let raw {
                defer { freeReplyObject(raw) }
                guard let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self)) else {
                    isBroken = true
                    throw RedisError(.protocolError, endpoint: endpoint, "unknown reply type")
                }
                return reply
            }
            let received = incoming.withUnsafeMutableBytes { bytes in
                recv(descriptor, bytes.baseAddress!, bytes.count, 0)
            }
            if received > 0 {
                let fed = incoming.withUnsafeBytes { bytes in
                    redisReaderFeed(reader, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), received)
                }
                guard fed == REDIS_OK else {
                    isBroken = true
                    throw RedisError(.protocolError, endpoint: endpoint, "cannot buffer the reply")
                }
            } else if received == 0 {
                isBroken = true
                throw RedisError(.connectionLost, endpoint: endpoint, "server closed the connection")
            } else if errno != EINTR {
                throw failure(errorNumber: errno)
            }
        }
    }

    /// For a subscribed connection (pub/sub): the next message the server pushes, or nil
    /// when none arrives within `timeout`. Unlike a command, waiting in vain does not
    /// break the connection.
    public func nextPush(timeout: Duration) throws(RedisError) -> RedisReply? {
        guard !isBroken else { throw RedisError(.connectionLost, endpoint: endpoint, "connection already failed") }
        if let buffered = try bufferedReply() { return buffered }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return nil }
        return try readReply()
    }

    /// A reply hiredis has already read in full, without touching the socket.
    private func bufferedReply() throws(RedisError) -> RedisReply? {
        let reader = context.pointee.reader!
        var raw: UnsafeMutableRawPointer? = nil
        guard redisReaderGetReply(reader, &raw) == REDIS_OK else {
            isBroken = true
            throw RedisError(.protocolError, endpoint: endpoint, "unreadable pushed message")
        }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        guard let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self)) else {
            isBroken = true
            throw RedisError(.protocolError, endpoint: endpoint, "unknown reply type")
        }
        return reply
    }

    /// Sends a command without waiting for its reply (pub/sub `SUBSCRIBE`, whose answers
    /// arrive as pushed messages).
    public func sendWithoutReply(_ arguments: [[UInt8]]) throws(RedisError) {
        guard !arguments.isEmpty else {
            throw RedisError(.protocolError, endpoint: endpoint, "a command needs at least its name")
        }
        guard !isBroken else { throw RedisError(.connectionLost, endpoint: endpoint, "connection already failed") }
        frame(arguments)
        try sendOutgoing()
    }

    /// Whether this idle connection can be reused: not broken, and nothing to read. An
    /// idle socket that is readable has been closed or reset by the server (a restart, an
    /// idle timeout), so reusing it would fail the next command for nothing. Checked
    /// with `poll` only after `idleCheckAfter` unused: a connection handed back
    /// microseconds ago (the common case under load) is taken as it is.
    func isReusable(now: ContinuousClock.Instant) -> Bool {
        guard !isBroken, context.pointee.err == 0 else { return false }
        guard now - lastUsed >= Self.idleCheckAfter else { return true }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// How long a connection may sit in the pool before its socket is checked on reuse;
    /// shorter than any server restart.
    static let idleCheckAfter: Duration = .milliseconds(10)

    /// The error after a failed `send` or `recv`; the connection is unusable from now.
    private func failure(errorNumber: Int32) -> RedisError {
        isBroken = true
        if errorNumber == EAGAIN || errorNumber == EWOULDBLOCK {
            return RedisError(.timedOut, endpoint: endpoint, "no reply within \(commandTimeout.milliseconds) ms")
        }
        return RedisError(.connectionLost, endpoint: endpoint, String(cString: strerror(errorNumber)))
    }

    /// The context's error text (a fixed-size C array).
    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension timeval {
    /// A `timeval` for a (non-negative) duration.
    fileprivate init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: time_t(max(0, seconds)), tv_usec: suseconds_t(max(0, attoseconds) / 1_000_000_000_000))
    }
}

extension Duration {
    /// Whole milliseconds, for messages.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
