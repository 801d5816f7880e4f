// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerCrypto
import TabServerHTTP
import TabServerPush
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// Web Push in the app: the opt-in on More, `POST /push/subscribe` and `/push/unsubscribe`,
/// badges the app sets pushed to each subscribed browser, a 410 removing its subscription.
/// The push service is `RecordingPushService` on loopback (real ones cannot be reached
/// from here); http-ece decrypts what it received.
@Suite(
    "Push in the app", .serialized,
    .enabled(if: RecordingPushService.python != nil, "no .venv: scripts/test.sh installs Tests/push/requirements.txt"))
struct PushRouteTests {
    /// A browser's side of a subscription: its key and secret.
    struct Device {
        let key = P256PrivateKey.generate()
        let auth = SecureRandom.bytes(16)

        func json(_ endpoint: String, notifications: Bool = false) -> [UInt8] {
            let p256dh = Base64URL.encode(key.publicKey.rawRepresentation)
            return Array(
                #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(Base64URL.encode(auth))"},"notifications":\#(notifications)}"#
                    .utf8)
        }

        /// The plaintext of a body sent to this device, as http-ece decrypts it.
        func decrypt(_ body: [UInt8]) throws -> String {
            let result = try RecordingPushService.check([
                "decrypt", String(decoding: key.pemRepresentation, as: UTF8.self), Base64URL.encode(auth),
                Base64URL.encode(body),
            ])
            #expect(result.status == 0, "\(result.output)")
            return result.output
        }
    }

    func makePushApp(_ service: RecordingPushService?, configure: (inout AppConfiguration) -> Void = { _ in }) throws
        -> Application
    {
        try makeApp {
            $0.push.vapidKeyPath = TestFixtures.temporaryDirectory("vapid") + "/vapid.pem"
            $0.push.allowsLoopback = true
            $0.push.trustedCertificatesPath = service?.certificateAuthority
            $0.push.contact = "mailto:ops@example.com"
            $0.metrics = true
            configure(&$0)
        }
    }

    /// Subscribes `device` through More's opt-in: its token, the JSON post.
    func subscribe(_ client: TestClient, _ device: Device, endpoint: String, headers: [(String, String)] = [])
        async -> TestResponse
    {
        let more = await client.get("/more", headers: headers)
        let token = more.attribute(named: "data-csrf", inTagContaining: "push-optin") ?? ""
        return await client.send(
            .post, "/push/subscribe", body: device.json(endpoint),
            headers: headers + [("Content-Type", "application/json"), ("X-CSRF-Token", token)])
    }

    @Test("push off: More offers nothing and the routes are 404")
    func off() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        let more = await client.get("/more")
        #expect(more.status == 200)
        #expect(try more.document.first(".push-optin") == nil)
        let token = more.csrfToken ?? ""
        let answer = await client.send(
            .post, "/push/subscribe", body: Device().json("https://push.example.net/x"),
            headers: [("Content-Type", "application/json"), ("X-CSRF-Token", token)])
        #expect(answer.status == 404)
    }

    @Test("More offers the opt-in, hidden until its script finds the Push API: no prompt on load")
    func optIn() async throws {
        let app = try makePushApp(nil)
        let more = await TestClient(app.responder).get("/more")
        let section = try #require(more.tags(containing: "class=\"push-optin\"").first)
        #expect(section.contains(" hidden "))
        let key = try #require(more.attribute(named: "data-key", inTagContaining: "push-optin"))
        #expect(Base64URL.decode(key)?.count == 65)
        #expect(try more.document.first("script[src*=\"/js/push.\"]") != nil)
        // No other page loads the opt-in's script.
        let featured = await TestClient(app.responder).get("/tabs/featured")
        #expect(try featured.document.first("script[src*=\"/js/push.\"]") == nil)
    }

    @Test("a subscription is kept and the badge the app sets is pushed to it, encrypted, with the app badge's sum")
    func badgePushed() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service)
        let client = TestClient(app.responder)
        let device = Device()
        let answer = await subscribe(client, device, endpoint: service.endpoint("/send/phone"))
        #expect(answer.status == 200)
        // The new session's own token, for the page's next forms (the page had the signed one).
        let token = try #require(answer.body.split(separator: "\"").dropFirst(3).first)
        await #expect(client.get("/more").attribute(named: "data-csrf", inTagContaining: "push-optin") == String(token))
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        #expect(try app.engineStore.load(id, now: wallClockSeconds())?.pushSubscriptions.count == 1)
        #expect(try await app.setBadge(.badge(.count(2)), forTab: "music", visitor: id, notification: nil))
        #expect(try await app.setBadge(.badge(.count(3)), forTab: "movies", visitor: id, notification: nil))
        #expect(app.finishPushes(within: .seconds(10)))
        let received = service.requests()
        try #require(received.count == 2)
        #expect(try device.decrypt(received[0].body) == #"{"app_badge":2}"#)
        #expect(try device.decrypt(received[1].body) == #"{"app_badge":5}"#)
        let verified = try RecordingPushService.check([
            "vapid", received[1].headers["authorization"] ?? "", "https://127.0.0.1:\(service.port)",
        ])
        #expect(verified.status == 0, "\(verified.output)")
    }

    @Test("a notification goes only to a browser that asked for them; the other gets the badge alone")
    func notifications() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service) { $0.identityHeader = "X-Forwarded-User" }
        let phone = Device()
        let laptop = Device()
        let alice = [("X-Forwarded-User", "alice")]
        let one = TestClient(app.responder)
        let two = TestClient(app.responder)
        // Two devices of one signed-in user: both in the user's record.
        let more = await one.get("/more", headers: alice)
        let token = more.attribute(named: "data-csrf", inTagContaining: "push-optin") ?? ""
        await #expect(
            one.send(
                .post, "/push/subscribe", body: phone.json(service.endpoint("/phone"), notifications: true),
                headers: alice + [("Content-Type", "application/json"), ("X-CSRF-Token", token)]
            ).status == 200)
        await #expect(subscribe(two, laptop, endpoint: service.endpoint("/laptop"), headers: alice).status == 200)
        let record = try #require(try app.engineStore.load(.user("alice"), now: wallClockSeconds()))
        #expect(
            record.pushSubscriptions.map(\.endpoint).sorted() == [
                service.endpoint("/laptop"), service.endpoint("/phone"),
            ])
        var message = PushMessage(badge: 1)
        message.notification = .init(title: "New episode", navigate: "https://app.example/tabs/podcasts")
        #expect(try await app.sendPush(message, toUser: "alice") == 2)
        #expect(app.finishPushes(within: .seconds(10)))
        let received = service.requests()
        try #require(received.count == 2)
        let phoneBody = try #require(received.first { $0.path == "/phone" }).body
        let laptopBody = try #require(received.first { $0.path == "/laptop" }).body
        #expect(try phone.decrypt(phoneBody) == String(decoding: message.payload, as: UTF8.self))
        #expect(try laptop.decrypt(laptopBody) == #"{"app_badge":1}"#)
    }

    @Test("bad input: no token 403, not a subscription 422, http: or a private address 422, too large 413, a form 415")
    func badInput() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service) { $0.push.allowsLoopback = false }
        let client = TestClient(app.responder)
        let device = Device()
        let more = await client.get("/more")
        let token = more.attribute(named: "data-csrf", inTagContaining: "push-optin") ?? ""
        func post(_ body: [UInt8], token: String? = token, type: String = "application/json") async -> Int {
            var headers = [("Content-Type", type)]
            if let token { headers.append(("X-CSRF-Token", token)) }
            return await client.send(.post, "/push/subscribe", body: body, headers: headers).status
        }
        await #expect(post(device.json("https://push.example.net/x"), token: nil) == 403)
        await #expect(post(Array("{\"endpoint\": 5}".utf8)) == 422)
        await #expect(post(Array("not json".utf8)) == 422)
        await #expect(post(device.json("http://push.example.net/x")) == 422)
        await #expect(post(device.json("https://10.1.2.3/x")) == 422)
        await #expect(post(device.json("https://192.168.0.9:8443/x")) == 422)
        // Loopback is refused without the testing flag.
        await #expect(post(device.json(service.endpoint("/x"))) == 422)
        await #expect(post(device.json("https://push.example.net/" + String(repeating: "a", count: 5000))) == 413)
        await #expect(
            post(Array("endpoint=https://push.example.net/x".utf8), type: "application/x-www-form-urlencoded") == 415)
        // Nothing was kept (no session was even stored), nothing was sent.
        #expect(client.cookies["tabserver_session"] == nil)
        #expect(service.requests().isEmpty)
    }

    @Test("an endpoint over 1 KiB is refused; a browser keeps two subscriptions, a user five, both capped in bytes")
    func caps() async throws {
        let app = try makePushApp(nil) { $0.identityHeader = "X-Forwarded-User" }
        let long = "https://push.example.net/" + String(repeating: "a", count: 1000)
        let client = TestClient(app.responder)
        await #expect(subscribe(client, Device(), endpoint: long).status == 422)
        #expect(await subscribe(client, Device(), endpoint: String(long.prefix(1024))).status == 200)
        for number in 0..<4 {
            #expect(await subscribe(client, Device(), endpoint: "https://push.example.net/b\(number)").status == 200)
        }
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        let browser = try #require(try app.engineStore.load(id, now: wallClockSeconds())).pushSubscriptions
        #expect(browser.map(\.endpoint) == ["https://push.example.net/b2", "https://push.example.net/b3"])
        // A signed-in user's devices: five short ones, then the long ones push the oldest out.
        let alice = [("X-Forwarded-User", "alice")]
        let user = TestClient(app.responder)
        for number in 0..<8 {
            let endpoint = "https://push.example.net/u\(number)"
            #expect(await subscribe(user, Device(), endpoint: endpoint, headers: alice).status == 200)
        }
        var record = try #require(try app.engineStore.load(.user("alice"), now: wallClockSeconds())).pushSubscriptions
        #expect(record.map(\.endpoint) == (3..<8).map { "https://push.example.net/u\($0)" })
        for number in 0..<3 {
            let endpoint = String((long + "\(number)").suffix(1024 - 25)).replacingOccurrences(of: "/", with: "")
            let answer = await subscribe(
                user, Device(), endpoint: "https://push.example.net/" + endpoint, headers: alice)
            #expect(answer.status == 200)
        }
        record = try #require(try app.engineStore.load(.user("alice"), now: wallClockSeconds())).pushSubscriptions
        #expect(record.count == 2)
        #expect(record.reduce(0) { $0 + $1.storedBytes } <= PushSubscriptionLimit.user.bytes)
    }

    @Test("each subscribe of a stored session costs one of the client's new sessions: past the burst, 429")
    func subscribeBudget() async throws {
        let app = try makePushApp(nil) {
            $0.newSessionRate = 1
            $0.newSessionBurst = 3
        }
        let client = TestClient(app.responder)
        client.remoteAddress = "203.0.113.70"
        var statuses: [Int] = []
        for number in 0..<5 {
            statuses.append(await subscribe(client, Device(), endpoint: "https://push.example.net/\(number)").status)
        }
        // The first made the session (one unit), two more fit the burst.
        #expect(statuses == [200, 200, 200, 429, 429])
        let other = TestClient(app.responder)
        other.remoteAddress = "203.0.113.71"
        #expect(await subscribe(other, Device(), endpoint: "https://push.example.net/o").status == 200)
    }

    @Test("a push service answering 410 has the subscription removed, counted in /metrics; unsubscribe removes one too")
    func gone() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service)
        let client = TestClient(app.responder)
        await #expect(subscribe(client, Device(), endpoint: service.endpoint("/a/gone")).status == 200)
        await #expect(subscribe(client, Device(), endpoint: service.endpoint("/b/live")).status == 200)
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        #expect(try await app.sendPush(PushMessage(badge: 1), toVisitor: id) == 2)
        #expect(app.finishPushes(within: .seconds(10)))
        let left = try #require(try app.engineStore.load(id, now: wallClockSeconds())).pushSubscriptions
        #expect(left.map(\.endpoint) == [service.endpoint("/b/live")])
        let metrics = await client.get("/metrics").body
        #expect(metrics.contains("tabserver_push_subscriptions_total{change=\"removed\"} 1"), "\(metrics.suffix(900))")
        #expect(metrics.contains("tabserver_push_messages_total{result=\"gone\"} 1"))
        #expect(metrics.contains("tabserver_push_messages_total{result=\"delivered\"} 1"))
        // The visitor turns it off on this device.
        let token = await client.get("/more").attribute(named: "data-csrf", inTagContaining: "push-optin") ?? ""
        let off = await client.send(
            .post, "/push/unsubscribe", body: Array(#"{"endpoint":"\#(service.endpoint("/b/live"))"}"#.utf8),
            headers: [("Content-Type", "application/json"), ("X-CSRF-Token", token)])
        #expect(off.status == 204)
        #expect(try app.engineStore.load(id, now: wallClockSeconds())?.pushSubscriptions.isEmpty == true)
        #expect(try await app.sendPush(PushMessage(badge: 1), toVisitor: id) == 0)
    }

    /// What the worker posts on `pushsubscriptionchange`: the new subscription and the
    /// endpoint it replaces.
    func replacement(_ device: Device, endpoint: String, replacing old: String) -> [UInt8] {
        Array(device.json(endpoint).dropLast()) + Array(#","oldEndpoint":"\#(old)"}"#.utf8)
    }

    @Test(
        "a subscription the browser changed is replaced, keeping its notifications; the next push goes to the new one")
    func resubscribe() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service)
        let client = TestClient(app.responder)
        let old = Device()
        let more = await client.get("/more")
        let token = more.attribute(named: "data-csrf", inTagContaining: "push-optin") ?? ""
        let subscribed = await client.send(
            .post, "/push/subscribe", body: old.json(service.endpoint("/old"), notifications: true),
            headers: [("Content-Type", "application/json"), ("X-CSRF-Token", token)])
        #expect(subscribed.status == 200)
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        // The worker's settings carry the key it subscribes again with.
        let key = try #require(more.attribute(named: "data-key", inTagContaining: "push-optin"))
        await #expect(client.get("/sw.js").body.contains(#""pushKey":"\#(key)""#))
        let new = Device()
        let worker = [("Content-Type", "application/json"), ("Sec-Fetch-Site", "same-origin")]
        let replaced = await client.send(
            .post, "/push/resubscribe",
            body: replacement(new, endpoint: service.endpoint("/new"), replacing: service.endpoint("/old")),
            headers: worker)
        #expect(replaced.status == 204, "\(replaced.body)")
        let kept = try #require(try app.engineStore.load(id, now: wallClockSeconds())).pushSubscriptions
        #expect(kept.map(\.endpoint) == [service.endpoint("/new")])
        #expect(kept.first?.notifications == true)
        #expect(await client.get("/metrics").body.contains(#"tabserver_push_subscriptions_total{change="replaced"} 1"#))
        #expect(try await app.sendPush(PushMessage(badge: 7), toVisitor: id) == 1)
        #expect(app.finishPushes(within: .seconds(10)))
        let received = service.requests()
        try #require(received.count == 1)
        #expect(received[0].path == "/new")
        #expect(try new.decrypt(received[0].body) == #"{"app_badge":7}"#)
    }

    @Test("resubscribe refuses other origins (403), a session without that endpoint (410) and a bad body (422)")
    func resubscribeRefused() async throws {
        let service = try RecordingPushService()
        defer { service.stop() }
        let app = try makePushApp(service)
        let client = TestClient(app.responder)
        await #expect(subscribe(client, Device(), endpoint: service.endpoint("/old")).status == 200)
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        let body = replacement(Device(), endpoint: service.endpoint("/new"), replacing: service.endpoint("/old"))
        let json = ("Content-Type", "application/json")
        // Another site's page, and a request no browser vouches for.
        for site in [[("Sec-Fetch-Site", "cross-site")], [("Origin", "https://evil.example")], []] {
            let answer = await client.send(.post, "/push/resubscribe", body: body, headers: [json] + site)
            #expect(answer.status == 403, "\(site)")
        }
        let worker = [json, ("Sec-Fetch-Site", "same-origin")]
        // An endpoint this session never held: the old one is the capability.
        let guessed = replacement(Device(), endpoint: service.endpoint("/new"), replacing: service.endpoint("/other"))
        await #expect(client.send(.post, "/push/resubscribe", body: guessed, headers: worker).status == 410)
        // Another browser (no session): nothing made.
        let stranger = TestClient(app.responder)
        let strangers = await stranger.send(.post, "/push/resubscribe", body: body, headers: worker)
        #expect(strangers.status == 410)
        #expect(stranger.cookies["tabserver_session"] == nil)
        // No old endpoint; not a subscription; an http: endpoint.
        let bad = [
            Device().json(service.endpoint("/new")),
            Array(#"{"oldEndpoint":"\#(service.endpoint("/old"))","endpoint":"x"}"#.utf8),
            replacement(Device(), endpoint: "http://push.example.net/x", replacing: service.endpoint("/old")),
        ]
        for body in bad {
            await #expect(client.send(.post, "/push/resubscribe", body: body, headers: worker).status == 422)
        }
        let kept = try #require(try app.engineStore.load(id, now: wallClockSeconds())).pushSubscriptions
        #expect(kept.map(\.endpoint) == [service.endpoint("/old")], "nothing changed")
    }

    @Test("the VAPID key file is made on first start and the same key is used after a restart")
    func keyKept() async throws {
        let path = TestFixtures.temporaryDirectory("vapid-kept") + "/vapid.pem"
        let first = try makePushApp(nil) { $0.push.vapidKeyPath = path }
        let key = try await TestClient(first).get("/more")
        let again = try makePushApp(nil) { $0.push.vapidKeyPath = path }
        let other = try await TestClient(again).get("/more")
        let a = key.attribute(named: "data-key", inTagContaining: "push-optin")
        let b = other.attribute(named: "data-key", inTagContaining: "push-optin")
        #expect(a != nil && a == b)
        TestFixtures.write("garbage", to: path)
        #expect(throws: StartupError.self) { try makePushApp(nil) { $0.push.vapidKeyPath = path } }
    }
}
