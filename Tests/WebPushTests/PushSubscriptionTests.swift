// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerPush
import Testing

@Suite("Push subscriptions and endpoints")
struct PushSubscriptionTests {
    static let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let auth = "BTBZMqHH6r4Tts7J_aSIgg"

    static func json(_ endpoint: String, p256dh: String = p256dh, auth: String = auth) -> [UInt8] {
        Array(
            #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#.utf8)
    }

    @Test("a browser's subscription JSON is read: endpoint, key and secret")
    func reads() throws {
        let subscription = try PushSubscription(json: Self.json("https://fcm.googleapis.com/fcm/send/abc:def"))
        #expect(subscription.endpoint.host == "fcm.googleapis.com")
        #expect(subscription.endpoint.target == "/fcm/send/abc:def")
        #expect(subscription.endpoint.origin == "https://fcm.googleapis.com")
        #expect(subscription.p256dh.count == 65)
        #expect(subscription.auth.count == 16)
        // Padded base64url, as some browsers write it.
        let padded = try PushSubscription(json: Self.json("https://push.example.net/x", auth: Self.auth + "=="))
        #expect(padded.auth == subscription.auth)
    }

    @Test(
        "what is not a subscription is refused with a reason",
        arguments: [
            "not json", "[]", #"{"endpoint":"https://push.example.net/x"}"#, #"{"keys":{"p256dh":"a","auth":"b"}}"#,
            #"{"endpoint":5,"keys":{"p256dh":"a","auth":"b"}}"#,
        ])
    func notASubscription(_ text: String) {
        #expect(throws: WebPushError.self) { try PushSubscription(json: Array(text.utf8)) }
    }

    @Test("keys of the wrong size or off the curve are refused")
    func badKeys() {
        #expect(throws: WebPushError.self) {
            try PushSubscription(json: Self.json("https://push.example.net/x", auth: "AAAA"))
        }
        #expect(throws: WebPushError.self) {
            try PushSubscription(json: Self.json("https://push.example.net/x", p256dh: "BCVxsr7N_eNgVRqv"))
        }
        #expect(throws: WebPushError.self) {
            try PushSubscription(json: Self.json("https://push.example.net/x", auth: "!!!!"))
        }
    }

    @Test(
        "endpoints that are not public https names are refused",
        arguments: [
            "http://push.example.net/x", "ftp://push.example.net/x", "https://127.0.0.1/x", "https://10.0.0.8/x",
            "https://[::1]/x", "https://[fe80::1]:443/x", "https://2130706433/x", "https://0x7f.0.0.1/x",
            "https://127.1/x", "https://localhost/x", "https://api.localhost/x", "https://user@push.example.net/x",
            "https://push.example.net:0/x", "https://push.example.net:99999/x", "https:///x", "https://push .example/x",
            "https://push.example.net/x#frag", "https://pu_sh.example.net/x", "https://-push.example.net/x",
        ])
    func refusedEndpoints(_ url: String) {
        #expect(throws: WebPushError.self) { try PushEndpoint(url) }
    }

    @Test("the testing flag allows a loopback endpoint and nothing else")
    func loopbackFlag() throws {
        let endpoint = try PushEndpoint("https://127.0.0.1:8443/push", allowingLoopback: true)
        #expect(endpoint.port == 8443)
        #expect(throws: WebPushError.self) { try PushEndpoint("https://10.0.0.1/push", allowingLoopback: true) }
        #expect(throws: WebPushError.self) { try PushEndpoint("https://127.0.0.1/push") }
    }

    @Test("an oversized subscription is refused before it is parsed")
    func oversized() {
        let long = "https://push.example.net/" + String(repeating: "a", count: 5000)
        #expect(throws: WebPushError.self) { try PushSubscription(json: Self.json(long)) }
    }

    @Test("a badge message is plain JSON with a Topic; a notification is Declarative Web Push")
    func payloads() {
        let badge = PushMessage(badge: 3)
        #expect(String(decoding: badge.payload, as: UTF8.self) == #"{"app_badge":3}"#)
        #expect(badge.topic == "badge")
        var note = PushMessage(badge: 2)
        note.notification = .init(title: "New \"episode\"", body: "Out now", navigate: "https://app.example/tabs/x")
        #expect(
            String(decoding: note.payload, as: UTF8.self)
                == #"{"app_badge":2,"notification":{"app_badge":"2","body":"Out now","navigate":"https://app.example/tabs/x","title":"New \"episode\""},"web_push":8030}"#
        )
        #expect(note.topic == nil)
        #expect(PushMessage(badge: -4).badge == 0)
    }
}
