// SPDX-License-Identifier: Apache-2.0
import Synchronization
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

/// The shopping list, shared by every visitor: requests on both engine loops read it and
/// add to it under a lock. Nothing here waits, so a lock is all it needs (an actor would
/// cost each request a turn of its loop; see docs/threads.md).
final class Groceries: Sendable {
    private let items: Mutex<[String]>

    init(_ items: [String]) { self.items = Mutex(items) }

    /// Every item, in order.
    var all: [Item] { items.withLock { $0.enumerated().map { Item(index: $0.offset, name: $0.element) } } }

    /// The item at `index`; 404 when there is none.
    func item(at index: Int) throws -> Item {
        let name = items.withLock { $0.indices.contains(index) ? $0[index] : nil }
        guard let name else { throw HTTPError.notFound("There is no item \(index).") }
        return Item(index: index, name: name)
    }

    /// The longest item, in characters, and the most items the list keeps: every visitor
    /// may add to it, so nothing grows without a bound.
    static let longestItem = 100
    static let mostItems = 200

    /// Adds `item`; a blank or long one, or one past a full list, is refused naming the
    /// field (the form is shown again, 422).
    func add(_ item: String) throws {
        guard !item.allSatisfy(\.isWhitespace) else { throw FieldError("item", "Write what to buy.") }
        guard item.count <= Self.longestItem else {
            throw FieldError("item", "An item has at most \(Self.longestItem) characters.")
        }
        let added = items.withLock { items in
            guard items.count < Self.mostItems else { return false }
            items.append(item)
            return true
        }
        guard added else { throw FieldError("item", "The list is full: it keeps \(Self.mostItems) items.") }
    }

    /// The list tab's page: the items and the form that adds one (with the values and
    /// message of a refused post, when it is shown for one).
    func page(_ context: RequestContext) -> TabPage {
        let items = self.items.withLock { $0 }
        var form = TabForm(action: context.basePath + "/tabs/list", submitLabel: "Add", context: context)
        form.add("item", label: "Item")
        return TabPage(
            title: "Groceries", context: ["items": .array(items.map(MustacheValue.string)), "form": form.context])
    }
}
