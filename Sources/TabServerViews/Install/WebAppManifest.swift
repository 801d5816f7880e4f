// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerTabBar
import TabServerWeb

/// The web app manifest, generated from the model and the settings rather than kept as a
/// file: its shortcuts are the model's first tabs (long-press the home-screen icon → a
/// tab) with their titles in the visitor's language, its colour is the appearance's tint,
/// and its icons and screenshots carry their real sizes and content hashes.
///
/// Every URL in it is relative to the manifest's own (`<base>/manifest.webmanifest`), so
/// the installed app's scope and start are the base path behind a proxy.
package struct WebAppManifest: Sendable {
    package let appName: String
    package let description: String
    package let files: StaticFiles
    /// The parts that depend on the files alone, built once.
    private let icons: [JSONDocument]
    private let screenshots: [JSONDocument]

    /// At most this many shortcuts: Android shows four, and so does Chromium's menu.
    package static let shortcutLimit = 4
    /// What a manifest's `display_override` asks for, in order: standalone, then a
    /// browser window with minimal controls.
    package static let displayOverride = ["standalone", "minimal-ui"]
    /// The page background behind the splash screen (the light system grouped colour).
    package static let backgroundColor = "#f2f2f7"

    package init(configuration: AppConfiguration, files: StaticFiles) {
        appName = configuration.appName
        description = configuration.appDescription ?? configuration.appName
        self.files = files
        icons = Self.icons(files)
        screenshots = Self.screenshots(files, label: configuration.appName)
    }

    /// The name under the home-screen icon: the app's name when short enough to show
    /// whole (12 characters), else its last word ("TabServer Store" → "Store").
    package var shortName: String {
        guard appName.count > 12, let last = appName.split(separator: " ").last else { return appName }
        return String(last)
    }

    /// The manifest for `model` in `language`, as JSON bytes.
    package func json(model: TabBarModel, language: Language) -> [UInt8] {
        let fields: [(String, JSONDocument)] = [
            ("name", .string(appName)),
            ("short_name", .string(shortName)),
            ("description", .string(description)),
            ("lang", .string(language.code)),
            ("dir", .string(language.direction)),
            ("id", .string("./")),
            ("start_url", .string("./")),
            ("scope", .string("./")),
            ("display", .string("standalone")),
            ("display_override", .array(Self.displayOverride.map(JSONDocument.string))),
            ("background_color", .string(Self.backgroundColor)),
            ("theme_color", .string(model.appearance.tint)),
            ("icons", .array(icons)),
            ("shortcuts", .array(shortcuts(model: model, language: language))),
            ("screenshots", .array(screenshots)),
        ]
        return Array((JSONDocument.object(fields).text() + "\n").utf8)
    }

    /// The app icons (`icons/icon-*.png`), a maskable one marked so.
    private static func icons(_ files: StaticFiles) -> [JSONDocument] {
        files.paths.filter { $0.hasPrefix("icons/icon-") && $0.hasSuffix(".png") }.compactMap { path in
            guard let image = image(path, in: files) else { return nil }
            var fields = image
            if path.contains("maskable") { fields.append(("purpose", .string("maskable"))) }
            return .object(fields)
        }
    }

    /// The first enabled tabs of the model, each opening its tab.
    private func shortcuts(model: TabBarModel, language: Language) -> [JSONDocument] {
        model.tabs.filter(\.isEnabled).prefix(Self.shortcutLimit).map { tab in
            let title = language.tabTitles[tab.id] ?? tab.title
            var fields: [(String, JSONDocument)] = [("name", .string(title)), ("url", .string("tabs/\(tab.id)"))]
            if let icon = Self.image("icons/" + tab.icon, in: files) {
                fields.append(("icons", .array([.object(icon)])))
            }
            return .object(fields)
        }
    }

    /// `screenshots/*.png`: a portrait one is the phone's (`narrow`), a landscape one the
    /// desktop's (`wide`).
    private static func screenshots(_ files: StaticFiles, label: String) -> [JSONDocument] {
        files.paths.filter { $0.hasPrefix("screenshots/") && $0.hasSuffix(".png") }.compactMap { path in
            guard let file = files.file(path), let size = ImageSize(png: file.body.array),
                var fields = image(path, in: files)
            else { return nil }
            fields.append(("form_factor", .string(size.width > size.height ? "wide" : "narrow")))
            fields.append(("label", .string(label)))
            return .object(fields)
        }
    }

    /// `src`, `sizes` and `type` of an image of `Public/`: a PNG's real size, an SVG's
    /// "any"; nil for a missing file or another kind.
    private static func image(_ path: String, in files: StaticFiles) -> [(String, JSONDocument)]? {
        guard let file = files.file(path) else { return nil }
        let sizes: String
        if path.hasSuffix(".svg") {
            sizes = "any"
        } else if let size = ImageSize(png: file.body.array) {
            sizes = size.text
        } else {
            return nil
        }
        // Relative to the manifest, which sits at the base path's root.
        let src = String(files.url(for: path).dropFirst())
        return [("src", .string(src)), ("sizes", .string(sizes)), ("type", .string(file.contentType))]
    }
}
