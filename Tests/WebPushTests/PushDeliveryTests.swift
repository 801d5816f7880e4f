// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerPush
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Messages posted to a stand-in push service on loopback (real push services cannot be
/// reached from here), then checked by implementations that are not ours: http-ece
/// decrypts the bodies, py-vapid and PyJWT verify the VAPID tokens.
@Suite(
    "Push delivery", .serialized,
    .enabled(if: RecordingPushService.python != nil, "no .venv: scripts/test.sh installs Tests/push/requirements.txt"))
struct PushDeliveryTests {
    let vapid = P256PrivateKey.generate()
    let receiver = P256PrivateKey.generate()
    let auth = SecureRandom.bytes(16)

    func sender(
        _ service: RecordingPushService, policy: PushAddressPolicy = .testingLoopback, timeout: Duration = .seconds(5),
        capacity: Int = 128
    ) throws -> PushSender {
        try PushSender(
            key: vapid, subject: "mailto:ops@example.com", policy: policy, timeout: timeout,
            trustedCertificatesPath: service.certificateAuthority, laneCapacity: capacity,
            clock: { Int64(time(nil)) })
    }

    func subscription(_ url: String) throws -> PushSubscription {
        try PushSubscription(
            endpoint: url, p256dh: receiver.publicKey.rawRepresentation, auth: auth, allowingLoopback: true)
    }

    @Test("a message reaches the service encrypted (http-ece decrypts it) and signed (py-vapid, PyJWT verify it)")
    func delivered() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        var message = PushMessage(badge: 4)
        message.notification = .init(title: "New episode", body: "Out now", navigate: "https://app.example/tabs/x")
        let result = try sender(service).deliver(message, to: subscription(service.endpoint("/send/one?x=1")))
        #expect(result == .delivered(status: 201))
        let received = service.requests()
        try #require(received.count == 1)
        let request = received[0]
        #expect(request.path == "/send/one?x=1")
        #expect(request.headers["content-encoding"] == "aes128gcm")
        #expect(request.headers["ttl"] == "86400")
        #expect(request.headers["urgency"] == "normal")
        #expect(request.headers["content-type"] == "application/octet-stream")
        #expect(request.headers["topic"] == nil)
        let decrypted = try RecordingPushService.check([
            "decrypt", String(decoding: receiver.pemRepresentation, as: UTF8.self), Base64URL.encode(auth),
            Base64URL.encode(request.body),
        ])
        #expect(decrypted.status == 0, "\(decrypted.output)")
        #expect(decrypted.output == String(decoding: message.payload, as: UTF8.self))
        let verified = try RecordingPushService.check([
            "vapid", request.headers["authorization"] ?? "", "https://127.0.0.1:\(service.port)",
        ])
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.output.contains(#""sub": "mailto:ops@example.com""#))
        // Another audience does not verify: the check can fail.
        let wrongAudience = try RecordingPushService.check([
            "vapid", request.headers["authorization"] ?? "", "https://push.example.net",
        ])
        #expect(wrongAudience.status != 0)
    }

    @Test("a badge update is low urgency with a Topic, so a newer count replaces one still waiting")
    func badgeOnly() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let result = try sender(service).deliver(PushMessage(badge: 7), to: subscription(service.endpoint("/b")))
        #expect(result == .delivered(status: 201))
        let request = try #require(service.requests().first)
        #expect(request.headers["topic"] == "badge")
        #expect(request.headers["urgency"] == "low")
        let decrypted = try RecordingPushService.check([
            "decrypt", String(decoding: receiver.pemRepresentation, as: UTF8.self), Base64URL.encode(auth),
            Base64URL.encode(request.body),
        ])
        #expect(decrypted.output == #"{"app_badge":7}"#)
    }

    @Test("410 and 404 say the subscription is gone; a 500 is a rejection, not a removal")
    func statuses() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let sender = try sender(service)
        #expect(
            try sender.deliver(PushMessage(badge: 1), to: subscription(service.endpoint("/x/gone")))
                == .gone(status: 410))
        #expect(
            try sender.deliver(PushMessage(badge: 1), to: subscription(service.endpoint("/x/missing")))
                == .gone(status: 404))
        #expect(
            try sender.deliver(PushMessage(badge: 1), to: subscription(service.endpoint("/x/broken")))
                == .rejected(status: 500))
    }

    @Test("a service that never answers is given up at the deadline")
    func silent() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let result = try sender(service, timeout: .seconds(1)).deliver(
            PushMessage(badge: 1), to: subscription(service.endpoint("/x/silent")))
        guard case .timedOut = result else {
            Issue.record("expected the deadline to end it, got \(result)")
            return
        }
    }

    @Test("without the testing flag a loopback address is refused and nothing is sent")
    func loopbackRefused() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let result = try sender(service, policy: .standard).deliver(
            PushMessage(badge: 1), to: subscription(service.endpoint("/x")))
        guard case .refused = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(service.requests().isEmpty)
    }

    @Test("a name that resolves to a loopback address is refused: the resolved address is what is checked")
    func nameResolvingToLoopback() throws {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let service = try RecordingPushService()
        defer { service.stop() }
        // This machine's own name resolves to 127.0.0.1 (/etc/hosts); it passes the
        // endpoint's check, which sees only a name.
        let endpoint = try PushSubscription(
            endpoint: "https://\(host.lowercased()):\(service.port)/x", p256dh: receiver.publicKey.rawRepresentation,
            auth: auth)
        let result = try sender(service, policy: .standard).deliver(PushMessage(badge: 1), to: endpoint)
        guard case .refused(let reason) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(reason.contains("not a public address"))
        #expect(service.requests().isEmpty)
    }

    @Test("a certificate the client does not trust fails the message")
    func untrusted() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let sender = try PushSender(
            key: vapid, subject: "mailto:ops@example.com", policy: .testingLoopback, clock: { Int64(time(nil)) })
        let result = sender.deliver(PushMessage(badge: 1), to: try subscription(service.endpoint("/x")))
        guard case .failed(let reason) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(reason.contains("not trusted"), "\(reason)")
        #expect(service.requests().isEmpty)
    }

    @Test("the queue is bounded: past its capacity a message is dropped and counted; the rest arrive")
    func boundedQueue() throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let sender = try sender(service, timeout: .seconds(1), capacity: 1)
        let silent = try subscription(service.endpoint("/x/silent"))
        var accepted = 0
        for _ in 0..<6 where sender.send(PushMessage(badge: 1), to: silent) { accepted += 1 }
        #expect(accepted < 6)
        #expect(sender.outcomes.dropped == 6 - accepted)
        #expect(sender.finish(within: .seconds(15)))
        // The first ran out of time; its host was then backed off for the others.
        #expect(sender.outcomes.timedOut == 1)
        #expect(sender.outcomes.backedOff == accepted - 1)
    }

    @Test("the address policy refuses every special range and takes public addresses")
    func policy() {
        let refused: [[UInt8]] = [
            [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1], [127, 0, 0, 1],
            [169, 254, 169, 254],
            [100, 64, 0, 1], [0, 0, 0, 0], [224, 0, 0, 1], [255, 255, 255, 255], [198, 18, 0, 1],
            Array(repeating: 0, count: 15) + [1], Array(repeating: 0, count: 16),
            [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1], [0xFD, 0x12] + Array(repeating: 0, count: 14),
            [0xFF, 0x02] + Array(repeating: 0, count: 13) + [1],
            Array(repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1],
            [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12), [0x20, 0x02] + Array(repeating: 0, count: 14),
            [0x00, 0x64, 0xFF, 0x9B] + Array(repeating: 0, count: 8) + [10, 0, 0, 1],
        ]
        for address in refused { #expect(!PushAddressPolicy.standard.allows(address), "\(address)") }
        #expect(PushAddressPolicy.standard.allows([93, 184, 216, 34]))
        #expect(PushAddressPolicy.standard.allows([172, 32, 0, 1]))
        #expect(PushAddressPolicy.standard.allows([0x2A, 0x00, 0x14, 0x50] + Array(repeating: 0, count: 11) + [1]))
        #expect(PushAddressPolicy.standard.allows(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 93, 184, 216, 34]))
        #expect(PushAddressPolicy.testingLoopback.allows([127, 0, 0, 1]))
        #expect(!PushAddressPolicy.testingLoopback.allows([10, 0, 0, 1]))
    }
}
