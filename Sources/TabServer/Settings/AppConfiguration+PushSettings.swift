// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP

extension AppConfiguration {
    /// The Web Push settings (part of `settings`).
    static let pushSettings: [Setting] = [
        Setting(
            flag: "vapid-key", environment: "TABSERVER_VAPID_KEY", defaultValue: "(none: Web Push off)",
            help: "Web Push's VAPID key (PEM, P-256), made there when absent and kept; turns on push badges"
        ) { configuration, value throws(ConfigurationError) in
            guard !value.isEmpty else { throw ConfigurationError("the path is empty") }
            configuration.push.vapidKeyPath = value
        },
        Setting(
            flag: "push-contact", environment: "TABSERVER_PUSH_CONTACT",
            defaultValue: "(the public origin, else mailto:webmaster@localhost)",
            help: "who push services may contact about this server (VAPID sub): a mailto: or https: URL"
        ) { configuration, value throws(ConfigurationError) in
            guard value.hasPrefix("mailto:") || value.hasPrefix("https://"), value.utf8.count <= 256,
                value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else {
                throw ConfigurationError("'\(value.prefix(60))' is not a mailto: or https: URL")
            }
            configuration.push.contact = value
        },
        Setting(
            flag: "push-allow-loopback", environment: "TABSERVER_PUSH_ALLOW_LOOPBACK", defaultValue: "off",
            help: "TESTING ONLY: take push endpoints on 127.0.0.1 (never in production): on or off"
        ) { configuration, value throws(ConfigurationError) in
            switch value.lowercased() {
            case "on", "true", "1", "yes": configuration.push.allowsLoopback = true
            case "off", "false", "0", "no": configuration.push.allowsLoopback = false
            default: throw ConfigurationError("'\(value)' is not on or off")
            }
        },
        Setting(
            flag: "push-trusted-certificates", environment: "TABSERVER_PUSH_TRUSTED_CERTIFICATES",
            defaultValue: "(the system's)",
            help: "TESTING ONLY: trust only these certificates (PEM) for push services"
        ) { configuration, value throws(ConfigurationError) in
            guard !value.isEmpty else { throw ConfigurationError("the path is empty") }
            configuration.push.trustedCertificatesPath = value
        },
    ]
}
