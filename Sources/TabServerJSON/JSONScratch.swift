// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The room a `JSONStreamEncoder` writes a value in: its buffer and its stacks, kept
/// between values so that each does not grow them again.
///
/// `@unchecked Sendable` is safe because ownership is exclusive at every moment: a
/// scratch is either lent to one encoding, on one thread, or lying in `spares`.
final class JSONScratch: @unchecked Sendable {
    // No dynamic exclusivity checks, which every append and push of a value would pay: one
    // encoding at a time uses a scratch.
    @exclusivity(unchecked) var out = JSONOutput()
    @exclusivity(unchecked) var frames: [JSONStreamEncoder.Frame] = []
    @exclusivity(unchecked) var members: [JSONStreamEncoder.Member] = []

    /// Scratches between two values, one for each thread that encoded at the same time
    /// (up to `maximumSpares`).
    private static let spares = Mutex<[JSONScratch]>([])
    private static let maximumSpares = 16
    /// The room kept for the bytes, and in each stack, between two values.
    private static let keptBytes = 16 * 1024
    private static let keptStack = 256

    /// Room for a small answer and a few levels and members from the start: grown from
    /// empty, each would take several allocations for a small array of objects.
    init() {
        out.reserve(1024)
        frames.reserveCapacity(8)
        members.reserveCapacity(8)
    }

    /// A scratch for one value: a spare, or a new one.
    static func take() -> JSONScratch {
        spares.withLock { $0.popLast() } ?? JSONScratch()
    }

    /// Keeps `scratch` for the next value.
    static func giveBack(_ scratch: JSONScratch) {
        scratch.shrink()
        spares.withLock { if $0.count < maximumSpares { $0.append(scratch) } }
    }

    /// Gives back the room a large value made it grow, keeping what a small one needs.
    func shrink() {
        out.shrink(to: Self.keptBytes)
        if frames.capacity > Self.keptStack { frames = [] }
        if members.capacity > Self.keptStack { members = [] }
        frames.reserveCapacity(8)
        members.reserveCapacity(8)
    }
}
