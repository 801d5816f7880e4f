// SPDX-License-Identifier: Apache-2.0
import TabServer

/// What the list's form posts.
struct NewItem: Decodable {
    var item: String
}

/// One item as the JSON routes answer it.
struct Item: Codable, Equatable {
    let index: Int
    let name: String
}

/// The shopping list, shared by every visitor (an actor: requests on both engine loops
/// add to it).
actor Groceries {
    private var items: [String]

    init(_ items: [String]) { self.items = items }

    /// Every item, in order.
    var all: [Item] { items.enumerated().map { Item(index: $0.offset, name: $0.element) } }

    /// The item at `index`; 404 when there is none.
    func item(at index: Int) throws -> Item {
        guard items.indices.contains(index) else { throw HTTPError.notFound("There is no item \(index).") }
        return Item(index: index, name: items[index])
    }

    /// Adds `item`; a blank one is refused, naming the field (the form is shown again, 422).
    func add(_ item: String) throws {
        guard !item.allSatisfy(\.isWhitespace) else { throw FieldError("item", "Write what to buy.") }
        items.append(item)
    }

    /// The list tab's page: the items and the form that adds one (with the values and
    /// message of a refused post, when it is shown for one).
    func page(_ context: RequestContext) -> TabPage {
        var form = TabForm(action: context.basePath + "/tabs/list", submitLabel: "Add", context: context)
        form.add("item", label: "Item")
        return TabPage(
            title: "Groceries", context: ["items": .array(items.map(MustacheValue.string)), "form": form.context])
    }
}
