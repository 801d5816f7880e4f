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
/// it is broken for good: hiredis cannot tell which reply a late answer belongs to.
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

    /// Sends one command (arguments as text) and returns its reply.
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Sends one command (binary-safe arguments) through `redisCommandArgv` and returns
    /// its reply. An error reply is returned, not thrown; a timeout or broken connection
    /// throws, and leaves this connection broken.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        precondition(!arguments.isEmpty, "a Redis command needs at least its name")
        guard !isBroken else {
            throw RedisError(.connectionLost, endpoint: endpoint, "connection already failed")
        }

        // All arguments in one buffer, so one set of pointers stays valid for the call.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        offsets.reserveCapacity(arguments.count)
        var lengths: [Int] = []
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(buffer.count)
            lengths.append(argument.count)
            buffer.append(contentsOf: argument)
        }
        buffer.append(0)  // never empty, so there is always a base address

        let context = self.context
        let (raw, errorNumber) = withSIGPIPEBlocked { () -> (UnsafeMutableRawPointer?, Int32) in
            buffer.withUnsafeBytes { bytes -> (UnsafeMutableRawPointer?, Int32) in
                var pointers: [UnsafePointer<CChar>?] = offsets.map {
                    (bytes.baseAddress! + $0).assumingMemoryBound(to: CChar.self)
                }
                return pointers.withUnsafeMutableBufferPointer { argv in
                    lengths.withUnsafeBufferPointer { argvlen in
                        let reply = redisCommandArgv(context, Int32(argv.count), argv.baseAddress, argvlen.baseAddress)
                        return (reply, errno)
                    }
                }
            }
        }

        guard let raw else { throw failure(errorNumber: errorNumber) }
        defer { freeReplyObject(raw) }
        guard let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self)) else {
            isBroken = true
            throw RedisError(.protocolError, endpoint: endpoint, "unknown reply type")
        }
        return reply
    }

    /// Whether this idle connection can be reused: not broken, and nothing to read. An
    /// idle socket that is readable has been closed or reset by the server (a restart, an
    /// idle timeout), so reusing it would fail the next command for nothing.
    var isReusable: Bool {
        guard !isBroken, context.pointee.err == 0 else { return false }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// The error after hiredis returned no reply; the connection is unusable from now.
    private func failure(errorNumber: Int32) -> RedisError {
        isBroken = true
        let message = Self.errorText(context)
        switch context.pointee.err {
        case REDIS_ERR_IO where errorNumber == EAGAIN || errorNumber == EWOULDBLOCK:
            return RedisError(.timedOut, endpoint: endpoint, "no reply within \(commandTimeout.milliseconds) ms")
        case REDIS_ERR_EOF:
            return RedisError(.connectionLost, endpoint: endpoint, "server closed the connection")
        case REDIS_ERR_PROTOCOL:
            return RedisError(.protocolError, endpoint: endpoint, message)
        default:
            return RedisError(.connectionLost, endpoint: endpoint, message.isEmpty ? "I/O error" : message)
        }
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
