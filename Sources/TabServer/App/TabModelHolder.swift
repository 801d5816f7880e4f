import Synchronization
import TabBar

/// The one shared tab controller, replaceable while requests run (SIGHUP reload or the
/// Swift API), like UIKit's `setViewControllers`. Each request takes a snapshot once, so
/// a reload never changes the model under a request halfway through.
public final class TabModelHolder: Sendable {
    private let controller: Mutex<TabBarController>

    init(_ controller: TabBarController) {
        self.controller = Mutex(controller)
    }

    /// The controller for this request.
    public var current: TabBarController { controller.withLock { $0 } }

    /// Installs a new model, keeping the hooks. Visitors' states catch up on their next request.
    public func replaceModel(_ model: TabBarModel) {
        controller.withLock { $0.model = model }
    }

    /// Changes the hooks.
    public func setHooks(_ hooks: TabBarHooks) {
        controller.withLock { $0.hooks = hooks }
    }
}
