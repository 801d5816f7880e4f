// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServer

/// The list tab's pages and actions: the list with a form to add an item, and the
/// action that adds it (a message and 422 when the item is empty, 303 when it is added).
final class Groceries: Sendable {
    private let items = Mutex<[String]>(["Milk", "Bread"])

    var content: TabContent {
        var content = TabContent()
        content.tab("list") { list in
            list.page("") { request in self.page(request.basePath) }
            list.action("") { request in
                let item = request.form.value("item") ?? ""
                guard !item.allSatisfy(\.isWhitespace) else {
                    return .invalid(self.page(request.basePath, error: "Write what to buy."))
                }
                self.items.withLock { $0.append(item) }
                return .redirect(to: "", notice: "Added \(item).")
            }
        }
        content.tab("about") { about in
            about.page("") { _ in TabPage(title: "About", context: ["text": "A first tab app on TabServer."]) }
        }
        return content
    }

    private func page(_ basePath: String, error: String? = nil) -> TabPage {
        var form = TabForm(action: basePath + "/tabs/list", submitLabel: "Add")
        form.add("item", label: "Item", error: error)
        let list = items.withLock { $0 }.map(MustacheValue.string)
        return TabPage(title: "Groceries", context: ["items": .array(list), "form": form.context])
    }
}
