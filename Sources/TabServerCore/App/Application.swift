// SPDX-License-Identifier: Apache-2.0
import Dispatch
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerWeb

#if canImport(Glibc)
    import Glibc
#endif

/// A configured tab app: the responder (callable in-process, no socket needed), the
/// shared tab model and the session store. Made by `buildApplication(_:content:hooks:)`;
/// `AppServer` (in the `TabServer` module) serves it on a socket.
///
/// ```swift
/// let app = try buildApplication(configuration, content: Notes())
/// let response = app.responder.respond(to: HTTPRequest(method: .get, path: "/healthz"))
/// app.reloadTabs()                      // what SIGHUP does in the demo
/// ```
public final class Application: Sendable {
    /// The configuration it was built with.
    public let configuration: AppConfiguration
    /// The app as a responder.
    public let responder: TabServerResponder
    /// The shared tab controller (replace the model, set hooks).
    public let tabs: TabModelHolder
    /// The session store.
    public let store: any SessionStore
    /// Where start-up, reload and error messages go.
    public let log: LogSink
    /// The Prometheus metrics, when `configuration.metrics` is on (served at `/metrics`).
    public let metrics: AppMetrics?

    init(
        configuration: AppConfiguration, responder: TabServerResponder, tabs: TabModelHolder, store: any SessionStore,
        metrics: AppMetrics? = nil, log: LogSink
    ) {
        self.metrics = metrics
        self.configuration = configuration
        self.responder = responder
        self.tabs = tabs
        self.store = store
        self.log = log
    }

    /// Removes expired sessions every `seconds`, off the engine's threads, for as long
    /// as the application exists. `AppServer` calls it when it starts serving.
    public func scheduleSweep(every seconds: Int) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(seconds)) { [weak self] in
            guard let self else { return }
            do {
                let removed = try self.store.sweep(now: wallClockSeconds())
                if removed > 0 { self.log.write("tabserver: swept \(removed) expired session(s)") }
            } catch {
                self.log.write("tabserver: session sweep failed: \(error)", level: .error)
            }
            self.scheduleSweep(every: seconds)
        }
    }

    /// Re-reads the tab definition file. An invalid file keeps the current model; the
    /// error is returned (and logged) so the caller can report it.
    @discardableResult
    public func reloadTabs() -> StartupError? {
        let refusal: StartupError
        do {
            let model = try TabDefinition.load(path: configuration.tabsFile, validator: tabs.validator)
            do {
                try tabs.replaceModel(model)
                log.write("tabserver: reloaded \(configuration.tabsFile): \(model.tabs.count) tabs")
                return nil
            } catch {
                refusal = StartupError("\(configuration.tabsFile): \(error)")
            }
        } catch {
            refusal = error
        }
        log.write(
            "tabserver: reload of \(configuration.tabsFile) refused, keeping the current tabs: \(refusal)",
            level: .error)
        return refusal
    }
}
