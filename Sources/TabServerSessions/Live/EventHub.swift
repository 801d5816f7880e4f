// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCrypto
import TabServerHTTP
import TabServerThreads

/// Live updates for open pages, as Server-Sent Events (`GET /events`): which visitor
/// listens on which streams, the recent events for `Last-Event-ID` resumption, caps on
/// streams, and a heartbeat so proxies and browsers keep idle streams open.
///
/// Events: `badge` (`{"tab":…,"text":…,"label":…}`, one visitor) and `bar` (the
/// arrangement or the model changed: the page refetches its bar).
public final class EventHub: Sendable {
    private struct Subscriber {
        let stream: ResponseStream
        let session: SessionID
        /// The signed-in user's record id, whose events this stream gets too.
        let user: SessionID?

        func wants(_ target: SessionID?) -> Bool { target == nil || target == session || target == user }
    }

    private struct Recent {
        let id: Int
        let session: SessionID?
        let bytes: [UInt8]
    }

    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var perSession: [SessionID: Int] = [:]
        var nextID = 1
        var recent: [Recent] = []
    }

    private let state = Mutex(State())
    /// Other instances, when they share a store; events published here go to them too.
    private let relay = Mutex<(any EventRelay)?>(nil)
    /// This instance, so a relayed event it published itself is not delivered twice.
    private let origin = SecureRandom.bytes(8).map { String($0, radix: 16) }.joined()
    /// Streams one session may hold (several windows; more are refused).
    public let maximumPerSession: Int
    /// Streams in all; the rest of the connection budget stays for pages.
    public let maximumTotal: Int
    private static let recentCapacity = 512
    /// Writes the heartbeat every `heartbeat`, until `closeAll()`.
    private let heartbeat = Mutex<RepeatingTimer?>(nil)

    /// A hub allowing `maximumPerSession` streams per visitor and `maximumTotal` in all,
    /// writing a heartbeat comment every `heartbeat` to every stream.
    public init(maximumPerSession: Int = 4, maximumTotal: Int = 5_000, heartbeat: Duration = .seconds(15)) {
        self.maximumPerSession = max(1, maximumPerSession)
        self.maximumTotal = max(1, maximumTotal)
        self.heartbeat.withLock {
            $0 = RepeatingTimer(every: heartbeat) { [weak self] in
                self?.beat() != nil
            }
        }
    }

    /// Streams open now.
    public var streamCount: Int { state.withLock { $0.subscribers.count } }

    /// Opens a stream for `session` (and, when signed in, for the user's record id `user`,
    /// which every browser of theirs hears), replaying the events after `lastEventID` (or,
    /// when they are no longer kept, one `bar` event so the page refreshes). Nil when a
    /// cap is reached.
    package func subscribe(session: SessionID, user: SessionID? = nil, lastEventID: Int?) -> ResponseStream? {
        let stream = ResponseStream()
        let key = ObjectIdentifier(stream)
        let replay: [[UInt8]]? = state.withLock { state in
            guard state.subscribers.count < maximumTotal, state.perSession[session, default: 0] < maximumPerSession
            else { return nil }
            let subscriber = Subscriber(stream: stream, session: session, user: user)
            state.subscribers[key] = subscriber
            state.perSession[session, default: 0] += 1
            guard let lastEventID, lastEventID < state.nextID - 1 else { return [] }
            if let oldest = state.recent.first?.id, lastEventID >= oldest - 1 {
                return state.recent.filter { $0.id > lastEventID && subscriber.wants($0.session) }
                    .map(\.bytes)
            }
            return [Self.event(id: state.nextID - 1, name: "bar", data: "{}")]
        }
        guard let replay else { return nil }
        stream.onClose { [weak self] in self?.unsubscribe(key, session: session) }
        stream.write(Array("retry: 2000\n\n".utf8))
        for bytes in replay { stream.write(bytes) }
        return stream
    }

    /// Relays events to and from other instances from now on.
    /// Events the relay could not send to the other instances since start.
    package var relayPublishFailures: Int { relay.withLock { $0 }?.publishFailures ?? 0 }

    package func connect(_ newRelay: any EventRelay) {
        relay.withLock { $0 = newRelay }
    }

    /// Sends an event to one visitor's streams, or to everyone's when `session` is nil,
    /// on this instance and (through the relay) on the others. `data` is one line (JSON).
    /// Apps may send events of their own; the page's script handles `badge` and `bar`.
    public func publish(_ name: String, data: String, to session: SessionID?) {
        let data = data.replacingNewlines()
        deliver(name, data: data, to: session)
        if let relay = relay.withLock({ $0 }) {
            let fields = [origin, session?.text ?? "*", name, data]
            relay.publish(Array(fields.joined(separator: "\n").utf8))
        }
    }

    /// An event another instance published (see `publish`).
    package func receive(_ payload: [UInt8]) {
        let fields = String(decoding: payload, as: UTF8.self).split(
            separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] != origin else { return }
        let session = fields[1] == "*" ? nil : SessionID(cookieValue: String(fields[1]))
        if fields[1] != "*" && session == nil { return }
        deliver(String(fields[2]), data: String(fields[3]), to: session)
    }

    private func deliver(_ name: String, data: String, to session: SessionID?) {
        let (bytes, targets) = state.withLock { state -> ([UInt8], [ResponseStream]) in
            let id = state.nextID
            state.nextID += 1
            let bytes = Self.event(id: id, name: name, data: data)
            state.recent.append(Recent(id: id, session: session, bytes: bytes))
            if state.recent.count > Self.recentCapacity { state.recent.removeFirst(state.recent.count / 4) }
            let targets = state.subscribers.values.filter { $0.wants(session) }.map(\.stream)
            return (bytes, targets)
        }
        for stream in targets { stream.write(bytes) }
    }

    /// Ends every stream and stops relaying (the server is stopping).
    public func closeAll() {
        heartbeat.withLock { $0?.cancel() }
        relay.withLock { relay in
            relay?.stop()
            relay = nil
        }
        let streams = state.withLock { $0.subscribers.values.map(\.stream) }
        for stream in streams { stream.close() }
    }

    private func unsubscribe(_ key: ObjectIdentifier, session: SessionID) {
        state.withLock { state in
            guard state.subscribers.removeValue(forKey: key) != nil else { return }
            let remaining = state.perSession[session, default: 1] - 1
            state.perSession[session] = remaining > 0 ? remaining : nil
        }
    }

    /// Writes a comment to every stream, so proxies and browsers keep idle ones open.
    private func beat() {
        let streams = state.withLock { $0.subscribers.values.map(\.stream) }
        let beat = Array(": heartbeat\n\n".utf8)
        for stream in streams { stream.write(beat) }
    }

    /// One event in the text/event-stream format.
    static func event(id: Int, name: String, data: String) -> [UInt8] {
        Array("id: \(id)\nevent: \(name)\ndata: \(data)\n\n".utf8)
    }
}

extension String {
    /// One line: an event's data must not end the event early.
    fileprivate func replacingNewlines() -> String {
        contains(where: { $0 == "\n" || $0 == "\r" }) ? String(map { $0 == "\n" || $0 == "\r" ? " " : $0 }) : self
    }

    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
