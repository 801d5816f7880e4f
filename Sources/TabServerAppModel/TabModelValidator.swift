// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import TabServerWeb

/// Checks a tab model against what the app ships, the same way at start-up, on a
/// reload and through the Swift API: every icon is a file under `icons/`, every tab's
/// template exists. (Ids, titles and badges are checked when the model is built.)
package struct TabModelValidator: Sendable {
    package let files: StaticFiles
    package let templateNames: Set<String>

    package init(files: StaticFiles, templateNames: Set<String>) {
        self.files = files
        self.templateNames = templateNames
    }

    package func validate(_ model: TabBarModel) throws(TabModelError) {
        if let image = model.appearance.backgroundImage, files.file(image) == nil {
            throw TabModelError(
                tabID: nil, reason: "appearance: unknown backgroundImage '\(image)' (no Public/\(image))")
        }
        for tab in model.tabs {
            for icon in [tab.icon] + (tab.selectedIcon.map { [$0] } ?? []) where files.file("icons/\(icon)") == nil {
                throw TabModelError(tabID: tab.id, reason: "unknown icon '\(icon)' (no Public/icons/\(icon))")
            }
            if !templateNames.contains("tabs/\(tab.template)") {
                throw TabModelError(
                    tabID: tab.id,
                    reason: "missing template '\(tab.template)' (no Templates/tabs/\(tab.template).mustache)")
            }
        }
        for group in model.groups {
            for icon in [group.icon] + (group.selectedIcon.map { [$0] } ?? []) where files.file("icons/\(icon)") == nil
            {
                throw TabModelError(
                    tabID: nil, reason: "group '\(group.id)': unknown icon '\(icon)' (no Public/icons/\(icon))")
            }
        }
    }
}
