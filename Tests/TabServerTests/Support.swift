// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

/// A fresh app on the shipped files with memory sessions and the given hooks.
func makeApp(hooks: AppHooks = demoHooks(), configure: (inout AppConfiguration) throws -> Void = { _ in }) throws
    -> Application
{
    var configuration = sevenTabConfiguration()
    try configure(&configuration)
    return try buildApplication(configuration, content: DemoCatalog(), hooks: hooks, redis: .standard, log: quietLog)
}

/// Why an app on the seven-tab model, changed by `configure`, refuses to build (nil: it
/// builds).
func startupRefusal(_ configure: (inout AppConfiguration) -> Void) -> StartupError? {
    var configuration = sevenTabConfiguration()
    configure(&configuration)
    do {
        _ = try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
        return nil
    } catch {
        return error
    }
}

/// An app on the seven-tab model with these appearance keys added (`"regularLayout":
/// "sidebar"`, `"minimizeBehavior": "onScrollDown"`).
func makeApp(appearance: [String: Any]) throws -> Application {
    let data = try #require(FileManager.default.contents(atPath: sevenTabsFile))
    var model = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var look = model["appearance"] as? [String: Any] ?? [:]
    look.merge(appearance) { _, new in new }
    model["appearance"] = look
    let path = TestFixtures.temporaryDirectory("appearance") + "/tabs.json"
    let written = try JSONSerialization.data(withJSONObject: model)
    TestFixtures.write(String(decoding: written, as: UTF8.self), to: path)
    return try makeApp { $0.tabsFile = path }
}

/// The shipped files, with the tests' model (`Tests/Fixtures/tabs.json`) less its search
/// tab: the seven tabs these tests were written for (4 + More on a phone). The search tab
/// has tests of its own (`SearchTabPageTests`); the demo's model `DemoModelTests`.
func sevenTabConfiguration() -> AppConfiguration {
    var configuration = TestFixtures.configuration()
    configuration.tabsFile = sevenTabsFile
    return configuration
}

/// Written once per test run, from the tests' model.
let sevenTabsFile: String = {
    let source = TestFixtures.testTabsFile
    let path = TestFixtures.temporaryDirectory("seven-tabs") + "/tabs.json"
    guard let data = FileManager.default.contents(atPath: source),
        var model = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
        let tabs = model["tabs"] as? [[String: Any]]
    else { return source }
    model["tabs"] = tabs.filter { $0["role"] as? String != "search" }
    guard let written = try? JSONSerialization.data(withJSONObject: model),
        FileManager.default.createFile(atPath: path, contents: written)
    else { return source }
    return path
}()

/// Start-up and reload messages go here instead of cluttering test output.
let quietLog = LogSink(descriptor: openDevNull())

private func openDevNull() -> Int32 {
    #if canImport(Glibc)
        return open("/dev/null", O_WRONLY)
    #else
        return 2
    #endif
}

#if canImport(Glibc)
    import Glibc
#endif

extension TestResponse {
    /// The elements of the page that `selector`, a literal of these helpers, matches. An
    /// invalid one ends the run: a helper that quietly found nothing would let a check
    /// that something is absent pass.
    func elements(_ selector: String) -> [HTMLElement] {
        do {
            return try document.select(selector)
        } catch {
            fatalError("\(error)")
        }
    }

    /// The classes of the page's `body` (the appearance's and the layout's).
    var bodyClasses: [String] { elements("body").first?.classes ?? [] }

    /// The page's language: the `lang` of its `html` element.
    var language: String? { elements("html").first?.attribute("lang") }

    /// The text of the page's `main`: an error page's message, a notice, the content.
    var mainText: String { elements("main").first?.text ?? "" }

    /// The tab ids of the bar's buttons, in order.
    var barTabIDs: [String] {
        elements("nav.tab-bar button[name=tab]").compactMap { $0.attribute("value") }
    }

    /// The id of the bar's tab button marked `aria-current="page"` (More is a button of
    /// the bar too, named "more", and not a tab).
    var currentTabID: String? {
        elements("nav.tab-bar button[name=tab][aria-current=page]").first?.attribute("value")
    }

    /// The tab ids listed on the More page, in order.
    var moreTabIDs: [String] {
        elements("form.more-list button[name=tab]").compactMap { $0.attribute("value") }
    }

    /// The badge text of each bar item that shows one, by tab id ("" for a dot).
    var barBadges: [String: String] {
        var badges: [String: String] = [:]
        for item in elements("nav.tab-bar button[name=tab]") {
            guard let id = item.attribute("value"),
                let badge = item.children.first(where: { $0.classes.contains("tab-badge") })
            else { continue }
            badges[id] = badge.text
        }
        return badges
    }

    /// The value of the hidden `version` field of the customize page.
    var customizeVersion: String? { elements("input[name=version]").first?.attribute("value") }
}

/// Records hook calls from the engine's threads.
final class HookRecorder: Sendable {
    private let calls = Mutex<[String]>([])
    func record(_ call: String) { calls.withLock { $0.append(call) } }
    var all: [String] { calls.withLock { $0 } }

    func hooks() -> AppHooks {
        var hooks = demoHooks()
        let base = hooks.shouldSelect
        hooks.shouldSelect = { [self] tab, state, confirmed in
            record("shouldSelect \(tab.id)")
            return base(tab, state, confirmed)
        }
        hooks.didSelect = { [self] tab, _ in record("didSelect \(tab.id)") }
        hooks.willBeginCustomizing = { [self] _ in record("willBeginCustomizing") }
        hooks.didEndCustomizing = { [self] _, changed in record("didEndCustomizing changed=\(changed)") }
        return hooks
    }
}
