// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The operating system a browser runs on, as far as a page's look depends on it: Android,
/// whose visitors expect Material's navigation bar, or any other. Read from
/// `Sec-CH-UA-Platform` (Chromium sends it with every request), else from the
/// `User-Agent`; no script is needed.
///
/// ```swift
/// request.clientPlatform == .android   // Chrome on an Android phone
/// ```
public enum ClientPlatform: Sendable, Hashable {
    /// Android (a phone, a tablet, a Chromebook running Android apps).
    case android
    /// Anything else: iOS, iPadOS, macOS, Windows, Linux, or not said.
    case other
}

extension HTTPRequest {
    /// The platform the browser names (see `ClientPlatform`): the client hint when sent,
    /// else the user agent. One pass over the fields: every page asks.
    public var clientPlatform: ClientPlatform {
        var hint: String? = nil
        var agent: String? = nil
        headers.forEachField { name, value in
            switch name.utf8.count {
            case 18 where hint == nil && HTTPHeaders.namesEqual(name, "sec-ch-ua-platform"): hint = value
            case 10 where agent == nil && HTTPHeaders.namesEqual(name, "user-agent"): agent = value
            default: break
            }
        }
        if let hint { return Self.contains(hint, "Android") ? .android : .other }
        if let agent { return Self.contains(agent, "Android") ? .android : .other }
        return .other
    }

    /// Whether `text` holds `word` (ASCII, in that case).
    private static func contains(_ text: String, _ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == needle[0],
                    bytes[index + 1..<index + needle.count].elementsEqual(needle[1...])
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }
}
