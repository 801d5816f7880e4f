import HTTPTypes
import Mustache
import Sessions
import TabBar
import Web

#if canImport(Glibc)
    import Glibc
#endif

/// The composition root: reads the files, compiles templates, loads the tab definition,
/// opens the session store and wires the app. `main` and the tests both call it.
/// Anything wrong stops here with a message naming the file, line and reason.
///
/// ```swift
/// var configuration = AppConfiguration()
/// configuration.tabsFile = "notes-tabs.json"
/// let app = try buildApplication(configuration, content: Notes(), hooks: hooks)
/// ```
public func buildApplication(
    _ configuration: AppConfiguration, content: any TabContentProvider, hooks: AppHooks = AppHooks(),
    log: LogSink = .standardError, clock: @escaping @Sendable () -> Int64 = wallClockSeconds
) throws(StartupError) -> Application {
    let files: StaticFiles
    do {
        files = try StaticFiles(directory: configuration.publicDirectory)
    } catch {
        throw StartupError(error.description)
    }
    for required in ["css/app.css", "js/app.js", "manifest.webmanifest", "icons/app.svg", "icons/apple-touch-icon.png"]
    where files.file(required) == nil {
        throw StartupError("\(configuration.publicDirectory)/\(required) is missing")
    }
    let library: MustacheLibrary
    do {
        library = try MustacheLibrary(directory: configuration.templatesDirectory)
    } catch {
        throw StartupError("\(error)")
    }
    for reference in library.missingReferences() {
        throw StartupError(
            "\(configuration.templatesDirectory)/\(reference.template).mustache:\(reference.line): no template named '\(reference.name)'"
        )
    }
    for required in ["layout", "pages/more", "pages/customize", "pages/error"] where library[required] == nil {
        throw StartupError("\(configuration.templatesDirectory)/\(required).mustache is missing")
    }
    let model = try TabDefinition.load(path: configuration.tabsFile, files: files, templateNames: Set(library.names))
    let tabs = TabModelHolder(TabBarController(model: model))
    let localizer = try Localizer(directory: configuration.localesDirectory, log: log)
    let baseStore = try makeSessionStore(configuration)
    let metrics = configuration.metrics ? AppMetrics(routePatterns: TabServerApp.makeRouter().patterns) : nil
    let store: any SessionStore = metrics.map { InstrumentedSessionStore(baseStore, metrics: $0) } ?? baseStore
    let views = PageRenderer(
        library: library, basePath: configuration.basePath, appName: configuration.appName,
        assets: PageRenderer.Assets(files: files, basePath: configuration.basePath))
    let app = TabServerApp(
        configuration: configuration, tabs: tabs, store: store, views: views, content: content,
        files: files, localizer: localizer, hooks: hooks, metrics: metrics, clock: clock)
    return Application(
        configuration: configuration, responder: app, tabs: tabs, store: baseStore, metrics: metrics, log: log)
}

func makeSessionStore(_ configuration: AppConfiguration) throws(StartupError) -> any SessionStore {
    let lifetime = SessionLifetime(
        idle: configuration.sessionIdleTimeout, absolute: configuration.sessionAbsoluteTimeout)
    switch configuration.sessions {
    case "memory":
        return MemorySessionStore(capacity: configuration.memorySessionCapacity, lifetime: lifetime)
    case let spec where spec.hasPrefix("sqlite:"):
        do {
            return try SQLiteSessionStore(path: String(spec.dropFirst("sqlite:".count)), lifetime: lifetime)
        } catch {
            throw StartupError("session store \(spec): \(error)")
        }
    case let spec where spec.hasPrefix("redis://"):
        do {
            return try RedisSessionStore(url: spec, lifetime: lifetime, keyPrefix: configuration.redisPrefix)
        } catch {
            throw StartupError("session store \(spec): \(error)")
        }
    default:
        throw StartupError("unknown session store '\(configuration.sessions)'")
    }
}

/// Seconds since 1970 from the system clock.
@Sendable public func wallClockSeconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec)
}
