import CMicroHTTPD
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#endif

// libmicrohttpd's callbacks. They are global functions (not closures, and not in
// main.swift) because MHD calls them on its own threads: Swift 6 would treat a
// top-level closure in main.swift as main-actor code without a word of warning.
// State travels through context pointers: the daemon's `EngineContext` (unretained,
// kept alive by `HTTPServer`) and each request's `RequestContext` (retained on the
// first call, released in `engineRequestCompleted`).

/// The access handler. MHD calls it once when the head has arrived, once per body
/// chunk, and once more when the request is complete. Answering on the first call
/// would make MHD close every keep-alive connection, so the first call only records.
func engineAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let requestPointer, let uploadDataSize else { return .NO }
    let engine = Unmanaged<EngineContext>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = requestPointer.pointee else {
        let context = RequestContext(
            method: HTTPMethod(method.map { String(cString: $0) } ?? "GET"),
            path: url.map { String(cString: $0) } ?? "/",
            version: version.map { String(cString: $0) } ?? "HTTP/1.1",
            startNanos: monotonicNanos())
        requestPointer.pointee = Unmanaged.passRetained(context).toOpaque()
        engine.inFlight.add(1, ordering: .relaxed)
        context.remoteAddress = clientAddress(connection)
        readHead(connection, into: context)
        if let rejection = checkHead(context, engine: engine, connection: connection) {
            // Ambiguous framing or a body we will not read: answer now, which also makes
            // MHD skip the body and close the connection — the only safe choice here.
            reject(context, with: rejection, connection: connection, engine: engine)
        }
        return .YES
    }
    let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let size = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        context.bodyBytes += size
        if context.rejection != nil {
            // Discard the rest of a rejected body, but not forever.
            return context.bodyBytes > engine.maxBodySize * 16 + 1_048_576 ? .NO : .YES
        }
        if context.bodyBytes > engine.maxBodySize {
            reject(
                context,
                with: errorResponse(.contentTooLarge, "The request body is larger than \(engine.maxBodySize) bytes."),
                connection: connection, engine: engine)
            return .YES
        }
        guard let processor = context.postProcessor else {
            reject(
                context, with: errorResponse(.unsupportedMediaType, unsupportedBodyMessage),
                connection: connection, engine: engine)
            return .YES
        }
        if MHD_post_process(processor, uploadData, size) == .NO {
            reject(
                context, with: errorResponse(.badRequest, "The form body is malformed."),
                connection: connection, engine: engine)
        }
        return .YES
    }

    if let rejection = context.rejection {
        if !context.rejectionQueued {
            context.rejectionQueued = true
            queue(rejection, context: context, connection: connection, engine: engine, forceClose: true)
        }
        return .YES
    }
    if let processor = context.postProcessor {
        // Destroying the processor flushes the last urlencoded value it still holds.
        context.postProcessor = nil
        if MHD_destroy_post_processor(processor) == .NO {
            queue(
                errorResponse(.badRequest, "The form body is malformed."), context: context,
                connection: connection, engine: engine, forceClose: true)
            return .YES
        }
    }
    let request = HTTPRequest(
        method: context.method, path: context.path, query: readPairs(connection, kind: .GET_ARGUMENT_KIND).pairs,
        headers: context.headers, formFields: context.formFields, remoteAddress: context.remoteAddress,
        version: context.version)
    let response = engine.responder.respond(to: request)
    queue(response, context: context, connection: connection, engine: engine, forceClose: false)
    return .YES
}

private let unsupportedBodyMessage =
    "Only application/x-www-form-urlencoded and multipart/form-data bodies are accepted."

/// Reads every header line (repeats included) and the facts the framing check needs.
private func readHead(_ connection: OpaquePointer, into context: RequestContext) {
    let collector = readPairs(connection, kind: .HEADER_KIND)
    var headers = HTTPHeaders()
    for pair in collector.pairs { headers.add(pair.name, pair.value) }
    context.headers = headers
    context.contentLengthCount = collector.contentLengthCount
    context.hasTransferEncoding = collector.hasTransferEncoding
}

/// Rejections decided from the head alone, before any body byte is read.
private func checkHead(_ context: RequestContext, engine: EngineContext, connection: OpaquePointer) -> HTTPResponse? {
    // libmicrohttpd 0.9.75 accepts both of these and guesses; a proxy in front may have
    // guessed differently (request smuggling), so neither is served.
    if context.contentLengthCount > 0 && context.hasTransferEncoding {
        return errorResponse(.badRequest, "Content-Length together with Transfer-Encoding is ambiguous.")
    }
    if context.contentLengthCount > 1 {
        return errorResponse(.badRequest, "More than one Content-Length header.")
    }
    let declaredLength = context.headers["content-length"].flatMap { Int($0) } ?? 0
    if declaredLength > engine.maxBodySize {
        return errorResponse(.contentTooLarge, "The request body is larger than \(engine.maxBodySize) bytes.")
    }
    let expectsBody = declaredLength > 0 || context.hasTransferEncoding
    guard expectsBody else { return nil }
    guard context.method.allowsBody else {
        return errorResponse(.badRequest, "A \(context.method) request cannot carry a body here.")
    }
    let processor = MHD_create_post_processor(
        connection, 16 * 1024, enginePostField, Unmanaged.passUnretained(context).toOpaque())
    guard let processor else { return errorResponse(.unsupportedMediaType, unsupportedBodyMessage) }
    context.postProcessor = processor
    return nil
}

private func reject(
    _ context: RequestContext, with response: HTTPResponse, connection: OpaquePointer, engine: EngineContext
) {
    context.rejection = response
    if let processor = context.postProcessor {
        context.postProcessor = nil
        MHD_destroy_post_processor(processor)
    }
    // Queueing succeeds while MHD has not started on the body; otherwise the answer goes
    // out on the final call, after the (bounded) rest of the body has been discarded.
    if queue(response, context: context, connection: connection, engine: engine, forceClose: true) {
        context.rejectionQueued = true
    }
}

/// Hands a response to MHD. Returns whether MHD accepted it.
@discardableResult
private func queue(
    _ response: HTTPResponse, context: RequestContext, connection: OpaquePointer, engine: EngineContext,
    forceClose: Bool
) -> Bool {
    if let cache = response.cache, !forceClose, !engine.draining.load(ordering: .relaxed),
        let entry = cache.entry(orMake: { PreparedResponse(response).map(ResponseCache.Entry.init) }),
        let prepared = entry.object as? PreparedResponse
    {
        let accepted = MHD_queue_response(connection, UInt32(response.status.code), prepared.pointer) == .YES
        if accepted {
            context.status = response.status.code
            context.bytesSent = response.body.count
            context.logNote = response.accessLogNote
        }
        return accepted
    }
    let mhdResponse = makeEngineResponse(response.body)
    guard let mhdResponse else { return false }
    defer { MHD_destroy_response(mhdResponse) }
    for field in response.headers where MHD_add_response_header(mhdResponse, field.name, field.value) == .NO {
        engine.errorLog.write("tabserver: dropped invalid response header \(field.name)", level: .warn)
    }
    if forceClose || engine.draining.load(ordering: .relaxed) {
        MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    let accepted = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse) == .YES
    if accepted {
        context.status = response.status.code
        context.bytesSent = response.body.count
        context.logNote = response.accessLogNote
    }
    return accepted
}

/// The plain-text answer the engine gives for requests rejected before routing.
func errorResponse(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.add("Content-Type", "text/plain; charset=utf-8")
    headers.add("Cache-Control", "no-store")
    return HTTPResponse(status: status, headers: headers, body: .bytes(Array("\(status): \(message)\n".utf8)))
}

/// Called by MHD when a request is done (answered, or the connection died): access log,
/// in-flight count, and the release that balances the retain of the first call.
func engineRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let requestPointer, let raw = requestPointer.pointee else { return }
    requestPointer.pointee = nil
    let engine = Unmanaged<EngineContext>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.takeRetainedValue(Unmanaged<RequestContext>.fromOpaque(raw))()
    if let processor = context.postProcessor {
        context.postProcessor = nil
        MHD_destroy_post_processor(processor)
    }
    engine.inFlight.subtract(1, ordering: .relaxed)
    engine.completed.add(1, ordering: .relaxed)
    guard let log = engine.accessLog else { return }
    if log.format == .json {
        log.write(bytes: jsonAccessLine(context, aborted: termination.rawValue != 0))
        return
    }
    // Built as bytes, not by string interpolation: this runs once per request.
    var line = [UInt8]()
    line.reserveCapacity(96)
    line.append(contentsOf: context.remoteAddress.utf8)
    line.append(32)
    line.append(contentsOf: context.method.description.utf8)
    line.append(32)
    line.append(contentsOf: context.path.utf8)
    line.append(32)
    if context.status == 0 { line.append(UInt8(ascii: "-")) } else { appendDecimal(UInt64(context.status), to: &line) }
    line.append(32)
    appendDecimal(UInt64(context.bytesSent), to: &line)
    line.append(contentsOf: "B ".utf8)
    let micros = (monotonicNanos() &- context.startNanos) / 1000
    appendDecimal(micros / 1000, to: &line)
    line.append(UInt8(ascii: "."))
    let fraction = micros % 1000
    if fraction < 100 { line.append(UInt8(ascii: "0")) }
    if fraction < 10 { line.append(UInt8(ascii: "0")) }
    appendDecimal(fraction, to: &line)
    line.append(contentsOf: "ms".utf8)
    // 0 is MHD_REQUEST_TERMINATED_COMPLETED_OK (an open C enum, imported without case names).
    if termination.rawValue != 0 { line.append(contentsOf: " aborted".utf8) }
    if let note = context.logNote {
        line.append(32)
        line.append(contentsOf: note.utf8)
    }
    log.write(bytes: line)
}

/// The access-log line as one JSON object: time, level, remote, method, path, status
/// (0 when no answer was sent), bytes, duration_ms, and note when there is one.
private func jsonAccessLine(_ context: RequestContext, aborted: Bool) -> [UInt8] {
    var line = JSONLogLine(level: .info)
    line.add("remote", context.remoteAddress)
    line.add("method", context.method.description)
    line.add("path", context.path)
    line.add("status", context.status)
    line.add("bytes", context.bytesSent)
    line.add("duration_ms", thousandths: (monotonicNanos() &- context.startNanos) / 1000)
    if aborted { line.add("aborted", true) }
    if let note = context.logNote { line.add("note", note) }
    return line.finished
}

private func appendDecimal(_ value: UInt64, to line: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &line) }
    line.append(UInt8(ascii: "0") + UInt8(value % 10))
}

/// Called by MHD when a connection is accepted and when it is closed: the open
/// connection count for metrics. 0 is MHD_CONNECTION_NOTIFY_STARTED, 1 CLOSED (an open
/// C enum, imported without case names).
func engineConnectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls else { return }
    let engine = Unmanaged<EngineContext>.fromOpaque(cls).takeUnretainedValue()
    switch code.rawValue {
    case 0: engine.openConnections.add(1, ordering: .relaxed)
    case 1: engine.openConnections.subtract(1, ordering: .relaxed)
    default: break
    }
}

/// Releases the `SharedBytes` a response held (MHD's free callback).
func engineReleaseShared(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}

/// One field chunk of a form body from MHD's post processor.
func enginePostField(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?, _ transferEncoding: UnsafePointer<CChar>?, _ data: UnsafePointer<CChar>?,
    _ offset: UInt64, _ size: Int
) -> MHD_Result {
    guard let cls, let key else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
    let chunk = UnsafeRawBufferPointer(start: data.map { UnsafeRawPointer($0) }, count: data == nil ? 0 : size)
    context.appendField(name: String(cString: key), chunk: chunk, offset: offset)
    return .YES
}

/// Reads all pairs of one kind (headers, or query arguments) with their lengths, so an
/// embedded NUL cannot truncate a value.
private func readPairs(_ connection: OpaquePointer, kind: MHD_ValueKind) -> PairCollector {
    let collector = PairCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values_n(connection, kind, enginePair, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector
}

func enginePair(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    if kind == .HEADER_KIND {
        if HTTPHeaders.namesEqual(name, "content-length") { collector.contentLengthCount += 1 }
        if HTTPHeaders.namesEqual(name, "transfer-encoding") { collector.hasTransferEncoding = true }
    }
    collector.pairs.append((name, text))
    return .YES
}

/// libmicrohttpd's own error messages, to the error log.
func engineLog(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    let engine = Unmanaged<EngineContext>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last == "\n" { message.removeLast() }
    engine.errorLog.write("libmicrohttpd: \(message)", level: .warn)
}

/// The peer's address as text ("-" if unknown).
private func clientAddress(_ connection: OpaquePointer) -> String {
    guard let address = tabserver_mhd_client_address(connection) else { return "-" }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    let family = Int32(address.pointee.sa_family)
    let ok: Bool = text.withUnsafeMutableBufferPointer { out in
        if family == AF_INET {
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var addr = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &addr, out.baseAddress, socklen_t(out.count)) != nil
            }
        } else if family == AF_INET6 {
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                var addr = inet6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &addr, out.baseAddress, socklen_t(out.count)) != nil
            }
        }
        return false
    }
    guard ok else { return "-" }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
