// SPDX-License-Identifier: Apache-2.0
import TabServer

/// The demo's content: an iTunes-like store with drill-down pages in every tab
/// (list → detail → sub-detail, e.g. `/tabs/music/albums/3/tracks/2`). All names are
/// invented for the demo.
public struct DemoCatalog: TabContentProvider {
    /// One collection shown by a tab: its items and what their children are called.
    struct Collection: Sendable {
        let segment: String  // "albums"
        let heading: String  // "Albums"
        let childSegment: String  // "tracks"
        let childHeading: String  // "Tracks"
        let items: [Item]
    }

    struct Item: Sendable {
        let title: String
        let creator: String
        let year: Int
        let genre: String
        let price: String
        let hue: Int
        let blurb: String
        let children: [(title: String, length: String)]
    }

    let collections: [String: Collection]
    /// The catalog never changes, so each page's values are built once.
    private let pages = RenderCache<PageKey, TabPage?>(capacity: 1024)

    private struct PageKey: Hashable, Sendable {
        let tabID: String
        let title: String
        let location: [Substring]
        let basePath: String
    }

    public init() {
        collections = DemoCatalog.makeCollections()
    }

    public func page(for request: HTTPRequest, context: RequestContext) async throws -> TabPage? {
        guard let tab = context.tab else { return nil }
        let (location, basePath) = (context.location, context.basePath)
        if tab.role == .search {
            // Results depend on the query, so this page is built per request, not cached.
            return location.isEmpty
                ? searchPage(tab: tab, query: request.queryValue("q") ?? "", basePath: basePath) : nil
        }
        return pages.value(for: PageKey(tabID: tab.id, title: tab.title, location: location, basePath: basePath)) {
            guard var page = makePage(tab: tab, location: location, basePath: basePath) else { return nil }
            // The catalog is the same for everyone: let the app reuse rendered pages.
            page.cacheKey = ([tab.id] + location.map(String.init)).joined(separator: "/")
            page.language = "en"  // the catalogue is not translated
            return page
        }
    }

    private func makePage(tab: Tab, location: [Substring], basePath: String) -> TabPage? {
        let root = "\(basePath)/tabs/\(tab.id)"
        if tab.id == "featured" { return location.isEmpty ? featuredPage(tab: tab, basePath: basePath) : nil }
        if tab.id == "purchased" { return purchasedPage(tab: tab, location: location, basePath: basePath) }
        guard let collection = collections[tab.id] else {
            return location.isEmpty ? TabPage(title: tab.title, context: ["isEmpty": true]) : nil
        }
        switch location.count {
        case 0:
            return TabPage(
                title: tab.title,
                context: [
                    "isList": true, "heading": .string(collection.heading),
                    "items": .array(
                        collection.items.enumerated().map { index, item in
                            row(item, href: "\(root)/\(collection.segment)/\(index + 1)")
                        }),
                ])
        case 2, 3, 4:
            guard location[0] == collection.segment, let index = Self.index(location[1], in: collection.items.count)
            else { return nil }
            let item = collection.items[index]
            let itemLocation = "\(collection.segment)/\(index + 1)"
            if location.count == 2 {
                return TabPage(
                    title: item.title, parentLocation: "", parentTitle: tab.title,
                    context: [
                        "isDetail": true, "title": .string(item.title), "subtitle": .string(item.creator),
                        "art": art(item), "blurb": .string(item.blurb),
                        "facts": facts([("Released", String(item.year)), ("Genre", item.genre), ("Price", item.price)]),
                        "childHeading": .string(collection.childHeading),
                        "playHref": .string("\(root)/\(itemLocation)/play"),
                        "children": .array(
                            item.children.enumerated().map { childIndex, child in
                                [
                                    "number": .int(childIndex + 1), "title": .string(child.title),
                                    "meta": .string(child.length),
                                    "href": .string(
                                        "\(root)/\(itemLocation)/\(collection.childSegment)/\(childIndex + 1)"),
                                ]
                            }),
                    ])
            }
            if location.count == 3 {
                // A full-screen player: pushed without the tab bar (hidesBottomBarWhenPushed).
                guard location[2] == "play" else { return nil }
                var player = TabPage(
                    title: "Now Playing", parentLocation: itemLocation, parentTitle: item.title,
                    context: [
                        "isPlayer": true, "title": .string(item.title), "subtitle": .string(item.creator),
                        "art": art(item), "playAction": .string("\(root)/\(itemLocation)/play"),
                    ])
                player.hidesBottomBar = true
                return player
            }
            guard location[2] == collection.childSegment,
                let childIndex = Self.index(location[3], in: item.children.count)
            else { return nil }
            let child = item.children[childIndex]
            return TabPage(
                title: child.title, parentLocation: itemLocation, parentTitle: item.title,
                context: [
                    "isLeaf": true, "title": .string(child.title),
                    "subtitle": .string("\(item.title) · \(item.creator)"),
                    "art": art(item),
                    "facts": facts([
                        ("Number", "\(childIndex + 1) of \(item.children.count)"), ("Length", child.length),
                        ("From", item.title), ("Released", String(item.year)),
                    ]),
                ])
        default:
            return nil
        }
    }

    /// "Play" on a player page: that item plays, and the now-playing strip above the bar
    /// shows it on every tab (see `accessory(for:)`).
    public func hasPage(for context: RequestContext) -> Bool {
        guard let tab = context.tab else { return false }
        if tab.role == .search { return context.location.isEmpty }
        return makePage(tab: tab, location: context.location, basePath: context.basePath) != nil
    }

    public func action(for context: RequestContext) -> (TabAction, RouteParameters)? {
        let location = context.location
        guard let tab = context.tab, location.count == 3, location[2] == "play", let collection = collections[tab.id],
            location[0] == collection.segment, let index = Self.index(location[1], in: collection.items.count)
        else { return nil }
        let item = collection.items[index]
        let place = "\(tab.id)/\(collection.segment)/\(index + 1)"
        let action = TabAction { _, context in
            context.setVisitorValue(NowPlaying(place: place, playing: true))
            return .redirect(to: location.joined(separator: "/"), notice: "Playing “\(item.title)”.")
        }
        return (action, RouteParameters())
    }

    /// What the now-playing strip shows, kept for the visitor: what plays (`music/albums/3`)
    /// and whether it is playing or paused.
    struct NowPlaying: VisitorValue {
        static let key = "nowPlaying"
        var place: String
        var playing: Bool
    }

    /// The now-playing strip (UIKit's `UITabAccessory`): once something was played, above
    /// the bar on every tab, with play/pause.
    public func accessory(for request: TabAccessoryRequest) -> TabAccessory? {
        guard let nowPlaying = request.visitorValue(NowPlaying.self) else { return nil }
        let place = nowPlaying.place
        let parts = place.split(separator: "/")
        guard parts.count == 3, let collection = collections[String(parts[0])], parts[1] == collection.segment,
            let index = Self.index(parts[2], in: collection.items.count)
        else { return nil }
        let item = collection.items[index]
        let playing = nowPlaying.playing
        var strip = TabAccessory(
            label: "Now Playing", template: "now-playing",
            context: [
                "title": .string(item.title), "artist": .string(item.creator), "hue": .int(item.hue),
                "initials": art(item)["initials"] ?? "", "playing": .bool(playing),
                "buttonLabel": .string(playing ? "Pause" : "Play"),
                "href": .string("\(request.basePath)/tabs/\(place)/play"),
            ],
            cacheKey: "now-playing/\(place)/\(playing)")
        strip.actions["toggle"] = { request in
            guard let wanted = request.form.value("playing"), wanted == "0" || wanted == "1" else {
                throw HTTPError.badRequest("Play or pause: the form field 'playing' must be 1 or 0.", field: "playing")
            }
            return request.settingVisitorValue(NowPlaying(place: place, playing: wanted == "1"))
        }
        return strip
    }

    private func featuredPage(tab: Tab, basePath: String) -> TabPage {
        let shelves: [(String, String)] = [
            ("music", "New Music"), ("movies", "Top Movies"), ("tv", "Binge-worthy TV"),
            ("audiobooks", "Listen Next"),
        ]
        let hero = collections["music"]!.items[0]
        return TabPage(
            title: tab.title,
            context: [
                "isFeatured": true,
                "hero": [
                    "title": .string(hero.title), "subtitle": .string("The new album from \(hero.creator)"),
                    "href": .string("\(basePath)/tabs/music/albums/1"), "art": art(hero),
                ],
                "shelves": .array(
                    shelves.compactMap { tabID, heading in
                        guard let collection = collections[tabID] else { return nil }
                        return [
                            "heading": .string(heading),
                            "items": .array(
                                collection.items.prefix(4).enumerated().map { index, item in
                                    row(item, href: "\(basePath)/tabs/\(tabID)/\(collection.segment)/\(index + 1)")
                                }),
                        ]
                    }),
            ])
    }

    private func purchasedPage(tab: Tab, location: [Substring], basePath: String) -> TabPage? {
        let purchases: [(String, Int)] = [("music", 2), ("movies", 1), ("audiobooks", 3), ("music", 5), ("tv", 2)]
        func entry(_ index: Int) -> (Collection, Item, Int)? {
            let (tabID, number) = purchases[index]
            guard let collection = collections[tabID], number <= collection.items.count else { return nil }
            return (collection, collection.items[number - 1], number)
        }
        if location.isEmpty {
            return TabPage(
                title: tab.title,
                context: [
                    "isList": true, "heading": "Your purchases",
                    "items": .array(
                        purchases.indices.compactMap { index in
                            guard let (_, item, _) = entry(index) else { return nil }
                            return row(item, href: "\(basePath)/tabs/purchased/receipts/\(index + 1)")
                        }),
                ])
        }
        guard location.count == 2, location[0] == "receipts", let index = Self.index(location[1], in: purchases.count),
            let (collection, item, number) = entry(index)
        else { return nil }
        let (tabID, _) = purchases[index]
        return TabPage(
            title: "Receipt", parentLocation: "", parentTitle: tab.title,
            context: [
                "isDetail": true, "title": .string(item.title), "subtitle": .string(item.creator), "art": art(item),
                "blurb": .string("Bought with your account. Downloads and streams are unlimited on all your devices."),
                "facts": facts([
                    ("Order", "M\(90_417 + index * 37)"), ("Price", item.price), ("Kind", collection.heading),
                ]),
                "childHeading": "Open",
                "children": [
                    [
                        "number": 1, "title": .string("Show in \(collection.heading)"), "meta": "",
                        "href": .string("\(basePath)/tabs/\(tabID)/\(collection.segment)/\(number)"),
                    ]
                ],
            ])
    }

    /// The search tab: every item whose title or creator contains the query.
    private func searchPage(tab: Tab, query: String, basePath: String) -> TabPage {
        let wanted = query.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        var results: [MustacheValue] = []
        if !wanted.isEmpty {
            for tabID in collections.keys.sorted() {
                guard let collection = collections[tabID] else { continue }
                for (index, item) in collection.items.enumerated()
                where item.title.lowercased().contains(wanted) || item.creator.lowercased().contains(wanted) {
                    results.append(row(item, href: "\(basePath)/tabs/\(tabID)/\(collection.segment)/\(index + 1)"))
                }
            }
        }
        var page = TabPage(
            title: tab.title,
            context: [
                "query": .string(query), "hasQuery": .bool(!wanted.isEmpty),
                "resultCount": .int(results.count), "results": .array(results),
            ])
        page.language = "en"
        return page
    }

    private func row(_ item: Item, href: String) -> MustacheValue {
        [
            "title": .string(item.title), "subtitle": .string("\(item.creator) · \(item.year)"),
            "meta": .string(item.price),
            "href": .string(href), "art": art(item),
        ]
    }

    private func art(_ item: Item) -> MustacheValue {
        let initials = item.title.split(separator: " ").compactMap(\.first).filter(\.isLetter).prefix(2).map(
            String.init
        )
        .joined()
        return ["hue": .int(item.hue), "initials": .string(initials)]
    }

    private func facts(_ pairs: [(String, String)]) -> MustacheValue {
        .array(pairs.map { ["label": .string($0.0), "value": .string($0.1)] })
    }

    /// "3" → 2 when 1 ≤ 3 ≤ count; anything else (0, "03", "-1", "x") → nil.
    static func index(_ text: Substring, in count: Int) -> Int? {
        guard let number = Int(text), number >= 1, number <= count, String(number) == text else { return nil }
        return number - 1
    }
}
