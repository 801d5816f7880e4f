// SPDX-License-Identifier: Apache-2.0
import TabServer

/// The demo's hooks: Purchased asks for confirmation before it opens (a
/// `shouldSelect` veto with a way through), and customization is logged.
public func demoHooks() -> AppHooks {
    var hooks = AppHooks()
    hooks.shouldSelect = { tab, _, confirmed in
        if tab.id == "purchased" && !confirmed {
            return .askConfirmation("Purchased shows your order history. Open it?")
        }
        return .allow
    }
    return hooks
}
