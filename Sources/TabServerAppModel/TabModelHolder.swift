// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions
import TabServerTabBar

/// The one shared tab controller, replaceable while requests run (SIGHUP reload or the
/// Swift API), like UIKit's `setViewControllers`. Each request takes a snapshot once, so
/// a reload never changes the model under a request halfway through.
public final class TabModelHolder: Sendable {
    private let snapshot: Mutex<ModelSnapshot>
    /// What checks a new model: replaced with the files in development mode.
    private let currentValidator: Mutex<TabModelValidator>
    /// The snapshot's generation, readable without the lock (the page cache's key).
    private let currentGeneration = Atomic<Int>(0)
    /// The model's platform style, readable without the lock (each page's variant).
    private let currentPlatformStyle: Atomic<Int>
    /// What checks a new model against the files the app serves.
    package var validator: TabModelValidator { currentValidator.withLock { $0 } }

    private let events: EventHub

    package init(_ controller: TabBarController, validator: TabModelValidator, events: EventHub) {
        snapshot = Mutex(ModelSnapshot(controller: controller, generation: 0))
        currentPlatformStyle = Atomic(Self.number(controller.model.appearance.platformStyle))
        currentValidator = Mutex(validator)
        self.events = events
    }

    /// The controller and what is derived from it, for this request (one reference).
    public var current: ModelSnapshot { snapshot.withLock { $0 } }

    /// The current model's generation, without taking the snapshot: a request that
    /// reads it just before a reload is one that ran before it.
    public var generation: Int { currentGeneration.load(ordering: .acquiring) }

    /// The current model's platform style, without taking the snapshot.
    package var platformStyle: TabBarAppearance.PlatformStyle {
        Self.styles[currentPlatformStyle.load(ordering: .relaxed)]
    }

    private static let styles = TabBarAppearance.PlatformStyle.allCases
    private static func number(_ style: TabBarAppearance.PlatformStyle) -> Int { styles.firstIndex(of: style) ?? 0 }

    /// Installs a new model, keeping the hooks, after checking it as start-up checks the
    /// tab file: every icon must be a static file and every tab's template must exist.
    /// A refused model changes nothing. Visitors' states catch up on their next request.
    ///
    /// ```swift
    /// try app.tabs.replaceModel(TabBarModel(tabs: [
    ///     Tab(id: "notes", title: "Notes", icon: "notes.svg", template: "notes"),
    /// ]))
    /// ```
    public func replaceModel(_ model: TabBarModel) throws(TabModelError) {
        try validator.validate(model)
        install(model)
    }

    /// Installs `model`, checked already by `validator`, which checks the models after it
    /// (development mode: the files changed with the model).
    package func install(_ model: TabBarModel, validator: TabModelValidator) {
        currentValidator.withLock { $0 = validator }
        install(model)
    }

    private func install(_ model: TabBarModel) {
        snapshot.withLock { current in
            var controller = current.controller
            controller.model = model
            current = ModelSnapshot(controller: controller, generation: current.generation + 1)
            currentPlatformStyle.store(Self.number(model.appearance.platformStyle), ordering: .relaxed)
            currentGeneration.store(current.generation, ordering: .releasing)
        }
        // Open pages refresh their bar (new tabs, titles, badges of the model).
        events.publish("bar", data: "{}", to: nil)
    }
}

/// A controller with the values every page derives from its model, computed once per
/// model rather than once per request. A class: a request takes one reference, not a
/// copy of every field (each a reference count the engine threads would share).
public final class ModelSnapshot: Sendable {
    /// The controller (model and hooks).
    public let controller: TabBarController
    /// Increases with every model change; caches of rendered parts are keyed by it.
    public let generation: Int
    /// The appearance as CSS custom properties.
    package let appearanceCSS: String
    /// The appearance settings that switch styles, as classes of `<body>`.
    package let appearanceClasses: String
    /// The classes of `<body>` on Material 3's platform.
    package let materialClasses: String

    init(controller: TabBarController, generation: Int) {
        self.controller = controller
        self.generation = generation
        let appearance = controller.model.appearance
        appearanceCSS = appearance.cssCustomProperties + ";" + appearance.cssExtraProperties
        appearanceClasses = appearance.cssClasses
        materialClasses = appearance.materialCSSClasses(sidebarHidden: nil)
    }
}
