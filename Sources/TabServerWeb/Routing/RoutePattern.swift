// SPDX-License-Identifier: Apache-2.0
/// A compiled path pattern such as `/tabs/{tab}/{location*}`: literal segments,
/// `{name}` for one segment, `{name*}` at the end for the rest of the path.
public struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(String)
        case rest(String)
    }

    let segments: [Segment]
    /// Whether the last segment takes the rest of the path: else a path matches only if it
    /// has as many segments, checked before any segment is compared (a router asks every
    /// pattern in turn).
    private let takesRest: Bool
    /// How specific the pattern is, to choose among several that match one path: a
    /// literal segment beats a parameter, which beats the rest, compared from the first
    /// segment on (`new` beats `{id}`, `{id}/edit` beats `{path*}`, and `/tabs/{tab}`
    /// beats `/tabs/{tab}/{rest*}` for `/tabs/music`). Computed once, not on each match.
    public let specificity: [Int]

    /// Whether this pattern is more specific than `other` (see `specificity`): compared
    /// segment by segment, a pattern that has ended counting between a parameter and the
    /// rest (what a rest matched is nothing there).
    public func isMoreSpecific(than other: RoutePattern) -> Bool {
        let count = max(specificity.count, other.specificity.count)
        for index in 0..<count {
            let mine = index < specificity.count ? specificity[index] : 1
            let theirs = index < other.specificity.count ? other.specificity[index] : 1
            if mine != theirs { return mine > theirs }
        }
        return false
    }

    /// The pattern compiled (empty segments ignored, so "" and "/" match the root).
    public init(_ pattern: String) {
        var parsed: [Segment] = []
        let parts = Self.segments(of: pattern)
        for (index, part) in parts.enumerated() {
            if part.hasPrefix("{") && part.hasSuffix("*}") && index == parts.count - 1 {
                parsed.append(.rest(String(part.dropFirst().dropLast(2))))
            } else if part.hasPrefix("{") && part.hasSuffix("*}") {
                // A rest parameter only means "the rest" at the end; elsewhere it is one segment.
                parsed.append(.parameter(String(part.dropFirst().dropLast(2))))
            } else if part.hasPrefix("{") && part.hasSuffix("}") {
                parsed.append(.parameter(String(part.dropFirst().dropLast())))
            } else {
                parsed.append(.literal(part))
            }
        }
        segments = parsed
        if case .rest = parsed.last { takesRest = true } else { takesRest = false }
        specificity = parsed.map { segment in
            switch segment {
            case .literal: 4
            case .parameter: 2
            case .rest: 0
            }
        }
    }

    /// Path segments without empty ones (so `/tabs//music/` is `/tabs/music`).
    public static func segments(of path: String) -> [Substring] {
        // A byte scan over the string's own storage, for every request: the generic
        // `split`, and then walking `String.UTF8View` indices, go through String's index
        // machinery for each byte.
        var path = path
        path.makeContiguousUTF8()
        let utf8 = path.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> [Substring] in
            var result: [Substring] = []
            result.reserveCapacity(8)
            var start = 0
            for offset in 0...bytes.count where offset == bytes.count || bytes[offset] == UInt8(ascii: "/") {
                if offset > start {
                    let from = utf8.index(utf8.startIndex, offsetBy: start)
                    result.append(path[from..<utf8.index(from, offsetBy: offset - start)])
                }
                start = offset + 1
            }
            return result
        } ?? []  // (never nil: the string was made contiguous)
    }

    /// The parameters captured when `path` (split into segments) matches, else nil.
    public func match(_ path: [Substring]) -> RouteParameters? {
        guard takesRest ? path.count >= segments.count - 1 : path.count == segments.count else { return nil }
        var parameters = RouteParameters()
        var index = 0
        for segment in segments {
            switch segment {
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
                index += 1
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters.values.append((name, String(path[index])))
                index += 1
            case .rest(let name):
                parameters.values.append((name, path[index...].joined(separator: "/")))
                index = path.count
            }
        }
        return index == path.count ? parameters : nil
    }
}
