// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP

extension Application {
    /// Development mode: the app built again from its files as saved now (`changed` names
    /// what was saved), used from the next request on, and every open page told over the
    /// live channel (`GET /events`) how to follow: a stylesheet or an icon swapped in place,
    /// anything else a reload. A file that does not load keeps the app as it was built last,
    /// makes pages show the problem (`DevelopmentResponder`), and is shown on every open page;
    /// the next build that works takes it away and reloads them.
    package func developmentReload(changed: [String]) {
        guard let previous = built.withLock({ $0 }) else { return }
        let rebuilt: Built
        do {
            rebuilt = try AppBuilder.rebuild(
                previous, configuration: configuration, setup: setup.withLock { $0 }, log: log)
        } catch {
            let problem = DevelopmentProblem(error)
            problemState.withLock { $0 = problem }
            log.write("development mode: \(error)", level: .error)
            previous.lasting.events.publish("dev", data: problem.eventData, to: nil)
            return
        }
        built.withLock { $0 = rebuilt }
        let wasBroken = problemState.withLock { state -> Bool in
            defer { state = nil }
            return state != nil
        }
        log.write("development mode: reloaded for \(changed.joined(separator: ", "))")
        let events = wasBroken ? [Self.reloadEvent] : changes(changed, in: rebuilt.responder)
        for event in events { rebuilt.lasting.events.publish("dev", data: event, to: nil) }
    }

    /// The problem while a saved file does not load (development mode), else nil.
    package var developmentProblem: DevelopmentProblem? { problemState.withLock { $0 } }

    /// The folders and files development mode watches: the templates, static files and
    /// locales with the app's overlays, and the tab file.
    package var developmentPaths: [String] {
        [configuration.templatesDirectory] + configuration.templateOverlays + [configuration.publicDirectory]
            + configuration.publicOverlays + [configuration.localesDirectory, configuration.tabsFile]
    }

    static let reloadEvent = #"{"kind":"reload"}"#

    /// What open pages do for `changed`: a stylesheet or an icon of the static files is
    /// swapped where it is used; any other change (a template, a locale, the tab file, a
    /// script) reloads them, once.
    private func changes(_ changed: [String], in responder: TabServerResponder) -> [String] {
        var swaps: [String] = []
        for path in changed {
            guard let file = staticFile(path) else { return [Self.reloadEvent] }
            let kind: String
            if file.hasPrefix("css/") && file.hasSuffix(".css") {
                kind = "stylesheet"
            } else if file.hasPrefix("icons/") {
                kind = "icon"
            } else {
                return [Self.reloadEvent]
            }
            let base = configuration.basePath
            let url = responder.pages.files.url(for: file, prefix: base)
            swaps.append(#"{"kind":"\#(kind)","path":"\#(base)/\#(file)","url":"\#(url)"}"#)
        }
        return swaps
    }

    /// `path` below the folder of static files (or an overlay) it is in; nil for a path of
    /// another folder.
    private func staticFile(_ path: String) -> String? {
        for folder in [configuration.publicDirectory] + configuration.publicOverlays
        where path.hasPrefix(folder + "/") {
            return String(path.dropFirst(folder.count + 1))
        }
        return nil
    }
}
