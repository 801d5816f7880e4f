// SPDX-License-Identifier: Apache-2.0
/// How much of a store's room its probationary sessions keep: a tenth of the maximum (at
/// least one). While that many are on probation, a new session evicts the oldest of them;
/// only while fewer are does it evict the least recently seen established one. So a flood
/// of one-shot sessions churns the reserve alone, and a new visitor has the time it takes
/// a tenth of the store to fill to come back and be established.
public enum ProbationReserve {
    /// The probationary sessions kept before established ones are touched, for a store of
    /// at most `capacity` anonymous sessions.
    public static func size(forCapacity capacity: Int) -> Int { max(1, capacity / 10) }
}
