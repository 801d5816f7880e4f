// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerJSON

/// What a push tells the installed app: the number on its icon (`badge`) and, where the
/// app asks, a notification. Its payload is Declarative Web Push JSON (`"web_push":
/// 8030`) when it shows a notification, so Safari 18.4+ shows it without running the
/// service worker; other browsers hand the same JSON to the service worker's `push`
/// handler (`Public/sw.js`), which sets the badge and shows the notification itself.
///
/// ```swift
/// var message = PushMessage(badge: 3)
/// message.notification = .init(title: "New episode", body: "Episode 12 is out", navigate: "https://app.example/tabs/podcasts")
/// let json = message.payload   // {"app_badge":3,"notification":{…},"web_push":8030}
/// ```
public struct PushMessage: Sendable, Hashable {
    /// A notification to show.
    public struct Notification: Sendable, Hashable {
        /// The title (required by Declarative Web Push; never empty).
        public var title: String
        /// The text under it.
        public var body: String
        /// The absolute URL opened when it is tapped (required by Declarative Web Push).
        public var navigate: String
        /// A notification with the same tag replaces this one.
        public var tag: String?
        /// Its language (BCP 47) and direction (`ltr`, `rtl`).
        public var language: String?
        public var direction: String?

        /// A notification with these parts.
        public init(
            title: String, body: String = "", navigate: String, tag: String? = nil, language: String? = nil,
            direction: String? = nil
        ) {
            self.title = title
            self.body = body
            self.navigate = navigate
            self.tag = tag
            self.language = language
            self.direction = direction
        }
    }

    /// The app badge's count (0 clears it; nil leaves it as it is).
    public var badge: Int?
    /// A notification to show, if any.
    public var notification: Notification?

    /// A message setting the badge to `badge`, with no notification.
    public init(badge: Int?, notification: Notification? = nil) {
        self.badge = badge.map { max(0, $0) }
        self.notification = notification
    }

    /// The JSON the push carries (keys sorted, so equal messages are equal bytes).
    ///
    /// With a notification, the badge is written twice: as the top-level `app_badge`
    /// number of the Push API's declarative message, and as the notification's
    /// `app_badge` string that Safari's first release reads.
    public var payload: [UInt8] {
        var members: [(String, String)] = []
        if let badge { members.append(("app_badge", String(badge))) }
        if let notification {
            var inner: [(String, String)] = [
                ("body", Self.string(notification.body)), ("navigate", Self.string(notification.navigate)),
                ("title", Self.string(notification.title.isEmpty ? " " : notification.title)),
            ]
            if let badge { inner.append(("app_badge", Self.string(String(badge)))) }
            if let tag = notification.tag { inner.append(("tag", Self.string(tag))) }
            if let language = notification.language { inner.append(("lang", Self.string(language))) }
            if let direction = notification.direction { inner.append(("dir", Self.string(direction))) }
            members.append(("notification", Self.object(inner)))
            members.append(("web_push", "8030"))
        }
        return Array(Self.object(members).utf8)
    }

    /// RFC 8030's `Topic`: a badge-only message replaces one still waiting at the push
    /// service (only the newest count matters); nil for a notification.
    public var topic: String? { notification == nil ? "badge" : nil }

    private static func string(_ text: String) -> String { JSONString.quoted(text) }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.sorted { $0.0 < $1.0 }.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
