// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerRedisSessions
import TabServerSessions
import TabServerTabBar

/// Helpers shared by the Redis test suites.
enum RedisTestHelpers {
    /// A session with every field set to something other than its default.
    static func richSession(now: Int64) -> Session {
        var state = TabBarState()
        state.selectedTabID = "music"
        state.order = ["music", "home", "video", "maps"]
        state.locations = ["music": "albums/12/tracks/3", "video": "clips/7"]
        state.badgeOverrides = ["home": .hidden, "music": .badge(.count(7, color: "#ff3b30")), "maps": .badge(.dot())]
        state.version = 4
        return Session(
            id: .generate(), csrfToken: .generate(), state: state, language: "fr-CA",
            notice: Notice(message: "Pas maintenant — « ok » \u{1F600}", confirmTabID: "video"),
            customizationStart: ["home", "music"], created: now - 50, lastSeen: now, revision: 0)
    }

    /// The key's TTL in seconds (-2: no key, -1: no TTL).
    static func timeToLive(_ store: RedisSessionStore, _ id: SessionID) throws -> Int {
        guard let seconds = try store.client.command(["TTL", store.key(for: id)]).integer else {
            throw RedisError(.protocolError, "TTL did not answer an integer")
        }
        return seconds
    }

    /// Runs `body(index)` on `count` new threads at once and waits for all of them
    /// (real threads: a dispatch pool on 2 cores would run only 2 at a time).
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        group.wait()
    }

    /// The error `body` threw (nil if none) and how long it took.
    static func failure(_ body: () throws(RedisError) -> Void) -> (RedisError?, Duration) {
        let start = ContinuousClock.now
        do {
            try body()
            return (nil, ContinuousClock.now - start)
        } catch {
            return (error, ContinuousClock.now - start)
        }
    }

    /// How long `body` took.
    static func measure<Result>(_ body: () throws -> Result) rethrows -> (Result, Duration) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, ContinuousClock.now - start)
    }
}

extension Duration {
    /// Milliseconds as a number, for messages and comparisons.
    var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
