// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerTabBar

/// Loads the shared tab definition file and checks it against what the app ships:
/// the same checks as any model change (see `TabModelValidator`).
package enum TabDefinition {
    package static func load(path: String, validator: TabModelValidator) throws(StartupError) -> TabBarModel {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError(.tabs, path: path, "cannot read the tab definition file")
        }
        let model: TabBarModel
        do {
            model = try TabBarModel.decode(json: data)
        } catch {
            throw StartupError(.tabs, path: path, "\(error)", underlying: error)
        }
        do {
            try validator.validate(model)
        } catch {
            // Start-up messages name the tab's position in the file too.
            let position = model.tabs.firstIndex { $0.id == error.tabID }.map { "tab \($0 + 1) " } ?? ""
            throw StartupError(.tabs, path: path, "\(position)\(error)", underlying: error)
        }
        return model
    }
}
