// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// The bytes a durable or shared store keeps for a session (everything but the id and
/// the revision, which stores keep beside it so compare-and-set needs no decoding).
///
/// Written in a compact binary form (format 2): its first byte is the format number,
/// then the token's 16 bytes, the times as varints and the state's strings with
/// their lengths, about a fifth of the JSON and several times faster both ways
/// (every write encodes, every cache miss decodes). Sessions written by earlier
/// versions as JSON (format 1, first byte `{`) are still read, and rewritten in the
/// new form on their next change, so an upgrade needs no migration step.
public enum SessionCodec {
    /// The format written now.
    public static let format = 2

    /// The first tail tag whose entry starts with its length (a varint): every entry a
    /// later build adds is tagged from here on, so a session it writes loads in this
    /// build with everything this one knows, the newer entries skipped (and dropped at
    /// the session's next write).
    static let firstFramedTag: UInt8 = pushSubscriptionsTag + 1

    /// The stored form of `session`.
    public static func encode(_ session: Session) -> [UInt8] {
        var writer = SessionBytesWriter(capacity: 96)
        encode(session, into: &writer)
        return writer.bytes
    }

    /// Appends the stored form of `session` to `writer` (which may be reused).
    package static func encode(_ session: Session, into writer: inout SessionBytesWriter) {
        writer.byte(UInt8(format))
        writer.id(session.csrfToken)
        writer.signed(session.created)
        writer.signed(session.lastSeen)
        writer.optionalString(session.language)
        if let notice = session.notice {
            writer.byte(1)
            writer.string(notice.message)
            writer.optionalString(notice.confirmTabID)
        } else {
            writer.byte(0)
        }
        if let start = session.customizationStart {
            writer.byte(1)
            writer.strings(start)
        } else {
            writer.byte(0)
        }
        encode(session.state, into: &writer)
        // Optional tail entries, each tagged (absent in sessions written before they
        // existed): 1 the merged user, 2 the app's values, 3 the sidebar choice, 4 the
        // hide and show choices, 5 the collapsed sidebar groups, 6 the push subscriptions
        // (a versioned part of its own: see `SessionCodec+PushSubscriptions.swift`).
        // Entries from `firstFramedTag` on carry their length (see `decode`).
        if let merged = session.mergedUser {
            writer.byte(1)
            writer.id(merged)
        }
        if !session.appValues.isEmpty {
            writer.byte(2)
            let pairs = session.appValues.sorted { $0.key < $1.key }
            writer.strings(pairs.map(\.key))
            writer.strings(pairs.map(\.value))
        }
        if let hidden = session.state.isSidebarHidden {
            writer.byte(3)
            writer.byte(hidden ? 1 : 0)
        }
        if !session.state.hiddenChoices.isEmpty {
            writer.byte(4)
            let pairs = session.state.hiddenChoices.sorted { $0.key < $1.key }
            writer.strings(pairs.map(\.key))
            writer.strings(pairs.map { $0.value ? "1" : "0" })
        }
        if !session.state.collapsedGroups.isEmpty {
            writer.byte(5)
            writer.strings(session.state.collapsedGroups)
        }
        encodePushSubscriptions(session, into: &writer)
    }

    /// The session stored as `bytes` under `id` at `revision`; throws when the bytes are
    /// not a session this version understands (the store then treats it as absent).
    public static func decode(_ bytes: [UInt8], id: SessionID, revision: Int) throws(SessionStoreError) -> Session {
        guard let first = bytes.first else { throw SessionStoreError("session \(id) is empty") }
        if first == UInt8(ascii: "{") { return try decodeJSON(bytes, id: id, revision: revision) }
        guard first == UInt8(format) else {
            throw SessionStoreError("session \(id) has unknown format \(first)")
        }
        var reader = SessionBytesReader(bytes)
        do throws(SessionBytesReader.Malformed) {
            _ = try reader.byte()
            guard let csrf = SessionID(bytes: try reader.raw(count: 16)) else { throw SessionBytesReader.Malformed() }
            let created = try reader.signed()
            let lastSeen = try reader.signed()
            let language = try reader.optionalString()
            let notice =
                try reader.flag()
                ? Notice(message: try reader.string(), confirmTabID: try reader.optionalString()) : nil
            let start = try reader.flag() ? try reader.strings() : nil
            var state = try decodeState(&reader)
            var merged: SessionID? = nil
            var appValues: [String: String] = [:]
            var sidebarHidden: Bool? = nil
            var hiddenChoices: [String: Bool] = [:]
            var collapsedGroups: [String] = []
            var pushSubscriptions: [PushSubscriptionRecord] = []
            var lastTag: UInt8 = 0
            while !reader.isAtEnd {
                let tag = try reader.byte()
                guard tag > lastTag else { throw SessionBytesReader.Malformed() }
                lastTag = tag
                switch tag {
                case 1:
                    guard let id = SessionID(bytes: try reader.raw(count: 16)) else {
                        throw SessionBytesReader.Malformed()
                    }
                    merged = id
                case 2:
                    let keys = try reader.strings()
                    let values = try reader.strings()
                    guard keys.count == values.count, Set(keys).count == keys.count else {
                        throw SessionBytesReader.Malformed()
                    }
                    appValues = Dictionary(uniqueKeysWithValues: zip(keys, values))
                case 3:
                    sidebarHidden = try reader.flag()
                case 4:
                    let keys = try reader.strings()
                    let values = try reader.strings()
                    guard keys.count == values.count, Set(keys).count == keys.count,
                        values.allSatisfy({ $0 == "1" || $0 == "0" })
                    else { throw SessionBytesReader.Malformed() }
                    hiddenChoices = Dictionary(uniqueKeysWithValues: zip(keys, values.map { $0 == "1" }))
                case 5:
                    collapsedGroups = try reader.strings()
                    guard Set(collapsedGroups).count == collapsedGroups.count else {
                        throw SessionBytesReader.Malformed()
                    }
                case pushSubscriptionsTag:
                    pushSubscriptions = try decodePushSubscriptions(&reader)
                case firstFramedTag...:
                    // An entry of a newer build: its length, then bytes this one skips.
                    _ = try reader.raw(count: try reader.count())
                default:
                    throw SessionBytesReader.Malformed()
                }
            }
            state.isSidebarHidden = sidebarHidden
            state.hiddenChoices = hiddenChoices
            state.collapsedGroups = collapsedGroups
            var session = Session(
                id: id, csrfToken: csrf, state: state, language: language, notice: notice, customizationStart: start,
                created: created, lastSeen: lastSeen, revision: revision, mergedUser: merged)
            session.appValues = appValues
            session.pushSubscriptions = pushSubscriptions
            return session
        } catch {
            throw SessionStoreError("session \(id) is malformed")
        }
    }

    private static func encode(_ state: TabBarState, into writer: inout SessionBytesWriter) {
        writer.optionalString(state.selectedTabID)
        if let order = state.order {
            writer.byte(1)
            writer.strings(order)
        } else {
            writer.byte(0)
        }
        // Sorted, so equal states always encode to equal bytes.
        writer.unsigned(UInt64(state.locations.count))
        for (tabID, location) in state.locations.sorted(by: { $0.key < $1.key }) {
            writer.string(tabID)
            writer.string(location)
        }
        writer.unsigned(UInt64(state.badgeOverrides.count))
        for (tabID, override) in state.badgeOverrides.sorted(by: { $0.key < $1.key }) {
            writer.string(tabID)
            switch override {
            case .hidden:
                writer.byte(0)
            case .badge(let badge):
                writer.byte(1)
                switch badge.value {
                case .text(let text):
                    writer.byte(0)
                    writer.string(text)
                case .count(let count):
                    writer.byte(1)
                    writer.signed(Int64(count))
                case .dot:
                    writer.byte(2)
                }
                writer.optionalString(badge.color)
            }
        }
        writer.signed(Int64(state.version))
    }

    private static func decodeState(_ reader: inout SessionBytesReader) throws(SessionBytesReader.Malformed)
        -> TabBarState
    {
        var state = TabBarState()
        state.selectedTabID = try reader.optionalString()
        state.order = try reader.flag() ? try reader.strings() : nil
        let locations = try reader.count()
        for _ in 0..<locations {
            let tabID = try reader.string()
            state.locations[tabID] = try reader.string()
        }
        let overrides = try reader.count()
        for _ in 0..<overrides {
            let tabID = try reader.string()
            switch try reader.byte() {
            case 0:
                state.badgeOverrides[tabID] = .hidden
            case 1:
                let value: Badge.Value
                switch try reader.byte() {
                case 0: value = .text(try reader.string())
                case 1: value = .count(Int(truncatingIfNeeded: try reader.signed()))
                case 2: value = .dot
                default: throw SessionBytesReader.Malformed()
                }
                let color = try reader.optionalString()
                // The colour goes into a style attribute: refuse what the model would refuse.
                if let color, !CSSColor.isValid(color) { throw SessionBytesReader.Malformed() }
                state.badgeOverrides[tabID] = .badge(Badge(value, color: color))
            default:
                throw SessionBytesReader.Malformed()
            }
        }
        state.version = Int(truncatingIfNeeded: try reader.signed())
        return state
    }
}
