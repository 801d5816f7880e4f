// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Declared tab groups (UITabGroup as one tab): validation, the bar, the group's stack, reordering")
struct TabGroupTests {
    static func tab(_ id: String, _ group: String? = nil) -> Tab {
        var tab = Tab(id: id, title: id.capitalized, icon: "\(id).svg")
        tab.group = group
        return tab
    }

    static let video = TabGroup(id: "video", title: "Video", icon: "video.svg", allowsReordering: true)

    /// featured, music, [movies, tv] as "video", podcasts, books, shop: six bar units, so 4 + More on a phone.
    static func controller(_ groups: [TabGroup] = [video]) throws -> TabBarController {
        TabBarController(
            model: try TabBarModel(
                tabs: [
                    tab("featured"), tab("music"), tab("movies", "video"), tab("tv", "video"), tab("podcasts"),
                    tab("books"), tab("shop"),
                ], groups: groups))
    }

    static func reason(_ tabs: [Tab], _ groups: [TabGroup]) -> TabBarModelError.Reason? {
        do {
            _ = try TabBarModel(tabs: tabs, groups: groups)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("bad groups are refused at load with a message naming them; an undeclared group stays a heading")
    func validation() throws {
        let tabs = [Self.tab("a"), Self.tab("b", "g"), Self.tab("c", "g"), Self.tab("d")]
        let group = TabGroup(id: "g", title: "G", icon: "g.svg")
        #expect(Self.reason(tabs, [group]) == nil)
        #expect(Self.reason(tabs, []) == nil, "\"group\" naming no declared group is a sidebar heading only")
        #expect(Self.reason(tabs, [group, group]) == .duplicateGroupID("g"))
        #expect(
            Self.reason(tabs, [TabGroup(id: "Bad Id", title: "G", icon: "g.svg")])
                == .invalidGroupID("Bad Id", index: 1))
        #expect(Self.reason(tabs, [group, TabGroup(id: "empty", title: "E", icon: "e.svg")]) == .emptyGroup("empty"))
        let scattered = [Self.tab("a", "g"), Self.tab("b"), Self.tab("c", "g")]
        #expect(Self.reason(scattered, [group]) == .scatteredGroup("g", tabID: "b"))
        #expect(
            TabBarModelError(.scatteredGroup("g", tabID: "b")).description
                == "group 'g': its tabs must be consecutive (tab 'b' is between them)")
        if case .invalidGroup(let problem, "a") = Self.reason(tabs, [TabGroup(id: "a", title: "A", icon: "a.svg")]) {
            #expect(problem.contains("same id"))
        } else {
            Issue.record("a group with a tab's id must be refused")
        }
        #expect(
            Self.reason(tabs, [TabGroup(id: "g", title: " ", icon: "g.svg")])
                == .invalidGroup("empty title", groupID: "g"))
        var hideable = Self.tab("c", "g")
        hideable.allowsHiding = true
        if case .invalidGroup(let problem, "g") = Self.reason([Self.tab("b", "g"), hideable], [group]) {
            #expect(problem.contains("'c'"))
        } else {
            Issue.record("a hideable child must be refused")
        }
        let json = """
            {"tabs": [{"id": "a", "title": "A", "icon": "a.svg", "group": "g"}],
             "groups": [{"id": "g", "title": "G", "icon": "g.svg", "allowsReordering": true}]}
            """
        let model = try TabBarModel.decode(json: json)
        #expect(model.groups == [TabGroup(id: "g", title: "G", icon: "g.svg", allowsReordering: true)])
        #expect(model.declaredGroup(ofTab: "a")?.id == "g")
        #expect(throws: TabBarModelError.self) {
            try TabBarModel.decode(
                json: #"{"tabs": [{"id": "a", "title": "A", "icon": "a.svg"}], "groups": [{"id": "g"}]}"#)
        }
    }

    @Test("in the bar the group is one item, counted once in 4 + More; its children are in neither bar nor More")
    func oneItem() throws {
        let controller = try Self.controller()
        let layout = controller.layout(TabBarState())
        #expect(layout.compactBarItems.map(\.tab.id) == ["featured", "music", "video", "podcasts"])
        #expect(layout.compactMoreItems.map(\.tab.id) == ["books", "shop"])
        #expect(layout.regularBarItems.map(\.tab.id) == ["featured", "music", "video", "podcasts", "books", "shop"])
        #expect(layout.items.filter { $0.groupID == "video" }.map(\.tab.id) == ["movies", "tv"])
        #expect(layout.items.first { $0.tab.id == "video" }?.isGroup == true)
        // Without the declaration the same tabs are seven items: 4 + More holds three others.
        let plain = try Self.controller([])
        #expect(plain.layout(TabBarState()).compactBarItems.map(\.tab.id) == ["featured", "music", "movies", "tv"])
    }

    @Test("the group keeps its own stack: re-selecting shows the child again, a re-tap pops to the list")
    func stack() throws {
        let controller = try Self.controller()
        let (listed, first) = try #require(controller.selectGroup("video", in: TabBarState()))
        #expect(first == .selected(tabID: "video", location: ""), "nothing on the stack: the list")
        #expect(controller.selectedGroupID(listed) == "video")
        #expect(controller.restorationTarget(listed) == ("video", ""))
        #expect(controller.layout(listed).items.first { $0.tab.id == "video" }?.isSelected == true)
        // The list's row: tv is pushed onto the group's stack at a location.
        var state = controller.select("tv", in: listed).0
        state = controller.visit("tv", location: "shows/3", in: state).0
        state = controller.pushingOntoGroup("tv", in: state)
        #expect(controller.groupStackTabID("video", in: state) == "tv")
        #expect(
            controller.layout(state).items.first { $0.tab.id == "video" }?.isSelected == true, "selected while tv shows"
        )
        state = controller.select("music", in: state).0
        #expect(controller.selectedGroupID(state) == nil)
        let (back, outcome) = try #require(controller.selectGroup("video", in: state))
        #expect(outcome == .selected(tabID: "tv", location: "shows/3"))
        #expect(controller.restorationTarget(back) == ("tv", "shows/3"))
        let (popped, retap) = try #require(controller.selectGroup("video", in: back))
        #expect(retap == .poppedToRoot(tabID: "video"))
        #expect(controller.groupStackTabID("video", in: popped) == nil)
        #expect(controller.restorationTarget(popped) == ("video", ""))
        #expect(controller.selectGroup("nope", in: popped) == nil)
        #expect(controller.pushingOntoGroup("music", in: popped) == popped, "a tab of no group has no group stack")
    }

    @Test("allowsReordering: up and down move a child within its group; refused otherwise; kept on reconcile")
    func reorder() throws {
        let controller = try Self.controller()
        let state = TabBarState()
        let moved = try controller.apply(.moveUp("tv"), to: state, expectedVersion: 0)
        #expect(controller.children(ofGroup: "video", in: moved) == ["tv", "movies"])
        #expect(moved.version == 1)
        #expect(controller.layout(moved).compactBarItems.map(\.tab.id) == ["featured", "music", "video", "podcasts"])
        #expect(throws: CustomizationError.cannotMove("tv", reason: .alreadyFirst)) {
            try controller.apply(.moveUp("tv"), to: moved, expectedVersion: 1)
        }
        #expect(throws: CustomizationError.stale(currentVersion: 1)) {
            try controller.apply(.moveDown("tv"), to: moved, expectedVersion: 0)
        }
        #expect(throws: CustomizationError.unknownTab("nope")) {
            try controller.apply(.moveUp("nope"), to: moved, expectedVersion: 1)
        }
        #expect(throws: CustomizationError.notCustomizable("tv")) {
            try controller.apply(.moveToMore("tv"), to: moved, expectedVersion: 1)
        }
        // The group keeps its place as fixed tabs do: podcasts moving up passes it, onto music's place.
        let podcasts = try controller.apply(.moveUp("podcasts"), to: state, expectedVersion: 0)
        #expect(
            controller.layout(podcasts).compactBarItems.map(\.tab.id) == ["featured", "podcasts", "video", "music"])
        let books = try controller.apply(.moveToBar("books"), to: state, expectedVersion: 0)
        #expect(controller.layout(books).compactBarItems.map(\.tab.id) == ["featured", "music", "video", "books"])
        // The group's row in a posted order stands for its children.
        let posted = try controller.apply(
            .setOrder(["featured", "music", "video", "shop", "podcasts", "books"]), to: moved, expectedVersion: 1)
        #expect(
            controller.effectiveOrder(posted) == ["featured", "music", "tv", "movies", "shop", "podcasts", "books"])
        let fixed = try Self.controller([TabGroup(id: "video", title: "Video", icon: "video.svg")])
        #expect(throws: CustomizationError.notCustomizable("tv")) {
            try fixed.apply(.moveUp("tv"), to: state, expectedVersion: 0)
        }
        #expect(fixed.children(ofGroup: "video", in: moved) == ["movies", "tv"], "no reordering: the model's order")
        #expect(controller.reconciled(moved) == moved)
        #expect(fixed.reconciled(moved).order == nil, "reordering no longer allowed: back to the default")
    }

    @Test("reconciling: a group's stack naming a tab no longer its child is dropped; old states read as none")
    func reconcile() throws {
        let controller = try Self.controller()
        let pushed = controller.pushingOntoGroup("tv", in: TabBarState())
        #expect(controller.reconciled(pushed) == pushed)
        let ungrouped = try Self.controller([])
        #expect(ungrouped.reconciled(pushed).locations.isEmpty)
        #expect(controller.selectedGroupID(TabBarState()) == nil)
    }
}

@Suite("Declared groups beside a search tab, in More, and with every child disabled")
struct TabGroupPlacesTests {
    @Test("with a search tab the group is one of 3 + More + Search; past the bar it is a row of More")
    func withSearchAndInMore() throws {
        var search = TabGroupTests.tab("search")
        search.role = .search
        let tabs = [
            TabGroupTests.tab("featured"), TabGroupTests.tab("music"), TabGroupTests.tab("podcasts"),
            TabGroupTests.tab("movies", "video"), TabGroupTests.tab("tv", "video"), TabGroupTests.tab("books"), search,
        ]
        let controller = TabBarController(model: try TabBarModel(tabs: tabs, groups: [TabGroupTests.video]))
        let layout = controller.layout(TabBarState())
        #expect(layout.compactBarItems.map(\.tab.id) == ["featured", "music", "podcasts", "search"])
        #expect(layout.compactMoreItems.map(\.tab.id) == ["video", "books"])
        #expect(controller.isInCompactMore("video", in: TabBarState()))
        #expect(!controller.isInCompactMore("movies", in: TabBarState()), "a child is never in More by itself")
        let (listed, _) = try #require(controller.selectGroup("video", in: TabBarState()))
        #expect(controller.layout(listed).isMoreSelected, "More is highlighted while its group is selected")
    }

    @Test("a group whose children are all disabled is dimmed and does not open")
    func disabled() throws {
        var movies = TabGroupTests.tab("movies", "video")
        movies.isEnabled = false
        var tv = TabGroupTests.tab("tv", "video")
        tv.isEnabled = false
        let controller = TabBarController(
            model: try TabBarModel(tabs: [TabGroupTests.tab("featured"), movies, tv], groups: [TabGroupTests.video]))
        #expect(controller.layout(TabBarState()).items.first { $0.isGroup }?.tab.isEnabled == false)
        let (state, outcome) = try #require(controller.selectGroup("video", in: TabBarState()))
        #expect(outcome == .disabled(tabID: "video"))
        #expect(state == TabBarState())
    }
}
