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
    /// How specific the pattern is, to choose among several that match one path: a
    /// literal segment beats a parameter, which beats the rest, compared from the first
    /// segment on (`new` beats `{id}`, `{id}/edit` beats `{path*}`). Computed once, not
    /// on each match.
    public let specificity: [Int]

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
        specificity = parsed.map { segment in
            switch segment {
            case .literal: 2
            case .parameter: 1
            case .rest: 0
            }
        }
    }

    /// Path segments without empty ones (so `/tabs//music/` is `/tabs/music`).
    public static func segments(of path: String) -> [Substring] {
        // A byte scan: the generic `split` showed up in profiles of every request.
        var result: [Substring] = []
        result.reserveCapacity(8)
        let utf8 = path.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                if start != index { result.append(path[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start != utf8.endIndex { result.append(path[start..<utf8.endIndex]) }
        return result
    }

    /// The parameters captured when `path` (split into segments) matches, else nil.
    public func match(_ path: [Substring]) -> RouteParameters? {
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
