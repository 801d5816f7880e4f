import FoundationEssentials
import TabBar
import Web

/// Loads the shared tab definition file and checks it against what the app ships:
/// every icon must be a file in `Public/icons/`, every tab template must exist.
enum TabDefinition {
    static func load(path: String, files: StaticFiles, templateNames: Set<String>) throws(StartupError) -> TabBarModel {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError("\(path): cannot read the tab definition file")
        }
        let model: TabBarModel
        do {
            model = try TabBarModel.decode(json: data)
        } catch {
            throw StartupError("\(path): \(error)")
        }
        for (index, tab) in model.tabs.enumerated() {
            for icon in [tab.icon] + (tab.selectedIcon.map { [$0] } ?? []) where files.file("icons/\(icon)") == nil {
                throw StartupError(
                    "\(path): tab \(index + 1) '\(tab.id)': unknown icon '\(icon)' (no Public/icons/\(icon))")
            }
            if !templateNames.contains("tabs/\(tab.template)") {
                throw StartupError(
                    "\(path): tab \(index + 1) '\(tab.id)': missing template '\(tab.template)' (no Templates/tabs/\(tab.template).mustache)"
                )
            }
        }
        return model
    }
}
