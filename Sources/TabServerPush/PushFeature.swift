// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerCrypto
import TabServerHTTP
import TabServerSessions

/// Web Push as the app uses it: the VAPID key, the sender and its queue, and what
/// becomes of each message — a 404 or 410 removes the subscription from the session (or
/// the user's record) that held it, and is counted in `/metrics`.
package final class PushFeature: Sendable {
    package let sender: PushSender
    /// The VAPID public key in base64url, as `PushManager.subscribe` takes it.
    package let applicationServerKey: String
    /// Whether loopback endpoints are taken (tests only).
    package let allowsLoopback: Bool
    private let store: any EngineSessionStore
    private let log: LogSink?
    private let subscribedCount = Atomic<Int>(0)
    private let unsubscribedCount = Atomic<Int>(0)
    private let replacedCount = Atomic<Int>(0)
    private let removedCount = Atomic<Int>(0)

    private init(sender: PushSender, allowsLoopback: Bool, store: any EngineSessionStore, log: LogSink?) {
        self.sender = sender
        applicationServerKey = Base64URL.encode(sender.applicationServerKey)
        self.allowsLoopback = allowsLoopback
        self.store = store
        self.log = log
    }

    /// The feature for `configuration`, or nil when push is off (no key file named).
    /// Throws, naming the file, when the key cannot be read or made.
    package static func make(_ configuration: AppConfiguration, store: any EngineSessionStore, log: LogSink?)
        throws(StartupError)
        -> PushFeature?
    {
        let push = configuration.push
        guard let path = push.vapidKeyPath else { return nil }
        let key: P256PrivateKey
        do {
            key = try VAPIDKeyFile.loadOrCreate(path: path)
        } catch {
            throw StartupError(.push, error.reason, underlying: error)
        }
        let contact =
            push.contact ?? configuration.publicOrigin.map { "https://\($0.host)" } ?? "mailto:webmaster@localhost"
        if push.allowsLoopback {
            log?.write(
                "--push-allow-loopback is on: push endpoints on 127.0.0.1 are taken (for tests only)",
                level: .warn)
        }
        do {
            let sender = try PushSender(
                key: key, subject: contact, policy: push.allowsLoopback ? .testingLoopback : .standard,
                timeout: push.timeout, trustedCertificatesPath: push.trustedCertificatesPath,
                clock: wallClockSeconds)
            return PushFeature(sender: sender, allowsLoopback: push.allowsLoopback, store: store, log: log)
        } catch {
            throw StartupError(.push, "Web Push: \(error.reason)", underlying: error)
        }
    }

    /// What a visitor's browser did to a subscription.
    package enum SubscriptionChange: Sendable {
        /// Taken (the opt-in on More).
        case subscribed
        /// Dropped (turned off on More).
        case unsubscribed
        /// Replaced by a new one the browser made (`pushsubscriptionchange`).
        case replaced
    }

    /// Counts a subscription a visitor's browser took, dropped or replaced.
    package func counted(_ change: SubscriptionChange) {
        switch change {
        case .subscribed: subscribedCount.add(1, ordering: .relaxed)
        case .unsubscribed: unsubscribedCount.add(1, ordering: .relaxed)
        case .replaced: replacedCount.add(1, ordering: .relaxed)
        }
    }

    /// Queues `message` for every subscription of the session or user record `id` (a
    /// notification only to those that asked for them); the number queued.
    @discardableResult
    package func send(_ message: PushMessage, to id: SessionID, now: Int64) throws(SessionStoreError) -> Int {
        guard let session = try store.load(id, now: now) else { return 0 }
        var queued = 0
        for record in session.pushSubscriptions {
            guard
                let subscription = try? PushSubscription(
                    endpoint: record.endpoint, p256dh: record.p256dh, auth: record.auth,
                    allowingLoopback: allowsLoopback)
            else {
                continue
            }
            var shown = message
            if !record.notifications { shown.notification = nil }
            let accepted = sender.send(shown, to: subscription) { [self] result in
                if case .gone = result { forget(record.endpoint, in: id) }
                if case .refused(let reason) = result {
                    log?.write("a push was not sent: \(reason)", level: .warn)
                }
            }
            if accepted { queued += 1 }
        }
        return queued
    }

    /// Removes the subscription at `endpoint` from `id`'s session, with compare-and-set.
    private func forget(_ endpoint: String, in id: SessionID) {
        for _ in 0..<SessionWrites.maxAttempts {
            do {
                guard var session = try store.load(id, now: wallClockSeconds()),
                    session.pushSubscriptions.contains(where: { $0.endpoint == endpoint })
                else { return }
                session.pushSubscriptions = session.pushSubscriptions.removing(endpoint: endpoint)
                if try store.update(session) != nil {
                    removedCount.add(1, ordering: .relaxed)
                    return
                }
            } catch {
                log?.write("a gone push subscription could not be removed: \(error)", level: .error)
                return
            }
        }
    }

    /// Its lines of the `/metrics` exposition.
    package var exposition: String {
        let outcomes = sender.outcomes
        var out = "# HELP tabserver_push_messages_total Push messages by what became of them.\n"
        out += "# TYPE tabserver_push_messages_total counter\n"
        for (result, count) in [
            ("delivered", outcomes.delivered), ("gone", outcomes.gone), ("rejected", outcomes.rejected),
            ("refused", outcomes.refused), ("failed", outcomes.failed), ("timed_out", outcomes.timedOut),
            ("backed_off", outcomes.backedOff), ("dropped", outcomes.dropped),
        ] {
            out += "tabserver_push_messages_total{result=\"\(result)\"} \(count)\n"
        }
        out += "# HELP tabserver_push_messages_waiting Push messages queued, not yet sent.\n"
        out += "# TYPE tabserver_push_messages_waiting gauge\ntabserver_push_messages_waiting \(sender.waiting)\n"
        out += "# HELP tabserver_push_subscriptions_total Push subscriptions taken, dropped by visitors, "
        out += "replaced by their browsers, and removed because the push service answered 404 or 410.\n"
        out += "# TYPE tabserver_push_subscriptions_total counter\n"
        out += "tabserver_push_subscriptions_total{change=\"subscribed\"} \(subscribedCount.load(ordering: .relaxed))\n"
        out +=
            "tabserver_push_subscriptions_total{change=\"unsubscribed\"} \(unsubscribedCount.load(ordering: .relaxed))\n"
        out += "tabserver_push_subscriptions_total{change=\"replaced\"} \(replacedCount.load(ordering: .relaxed))\n"
        out += "tabserver_push_subscriptions_total{change=\"removed\"} \(removedCount.load(ordering: .relaxed))\n"
        return out
    }
}
