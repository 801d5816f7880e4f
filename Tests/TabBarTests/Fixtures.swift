// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerTabBar

/// Builders for the models used across the tests: short ids, titles derived from them.
enum Fixture {
    /// Seven tabs: more than a compact bar holds (4 + More), fewer than a regular one.
    static let seven = ["home", "music", "video", "books", "news", "maps", "chat"]

    static func tab(
        _ id: String, fixed: Bool = false, enabled: Bool = true,
        badge: Badge? = nil, clearsBadge: Bool = false
    ) -> Tab {
        Tab(
            id: id, title: id.capitalizedFirst, icon: "\(id).svg", badge: badge,
            isEnabled: enabled, isCustomizable: !fixed, clearsBadgeOnSelect: clearsBadge)
    }

    static func model(
        _ ids: [String], fixed: Set<String> = [], disabled: Set<String> = []
    ) throws -> TabBarModel {
        try TabBarModel(tabs: ids.map { tab($0, fixed: fixed.contains($0), enabled: !disabled.contains($0)) })
    }

    static func controller(
        _ ids: [String] = seven, fixed: Set<String> = [], disabled: Set<String> = [],
        hooks: TabBarHooks = .init()
    ) throws -> TabBarController {
        TabBarController(model: try model(ids, fixed: fixed, disabled: disabled), hooks: hooks)
    }

    /// `count` ids "t1", "t2", …
    static func ids(_ count: Int) -> [String] {
        (1...count).map { "t\($0)" }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

/// Collects hook calls from `@Sendable` closures.
final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])

    func record(_ event: String) {
        storage.withLock { $0.append(event) }
    }

    var events: [String] { storage.withLock { $0 } }
}

/// A small, seeded SplitMix64 generator, so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
