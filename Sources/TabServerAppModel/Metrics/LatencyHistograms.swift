// SPDX-License-Identifier: Apache-2.0
/// A fixed set of duration histograms (one per route, or per store operation), Prometheus
/// style, in one `CounterBlock`. Recording is two relaxed atomic adds (a bucket and the
/// sum); cumulative counts are computed only when scraped.
final class LatencyHistograms: Sendable {
    /// Upper bounds in nanoseconds: 0.5 ms to 10 s, roughly ×2.5 apart.
    static let boundsNanos: [UInt64] = [
        500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000,
        500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
    ]
    /// The same bounds in seconds, as the `le` label prints them.
    static let boundLabels = [
        "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10",
    ]
    /// Per histogram: one counter per bound, one for larger durations (+Inf), the sum.
    private static let stride = boundsNanos.count + 2

    private let counters: CounterBlock

    /// `count` empty histograms.
    init(count: Int) {
        counters = CounterBlock(count: count * Self.stride)
    }

    /// Counts one duration into histogram `series`.
    @inline(__always)
    func record(_ series: Int, nanos: UInt64) {
        var bucket = 0
        let bounds = Self.boundsNanos
        while bucket < bounds.count && nanos > bounds[bucket] { bucket += 1 }
        let start = series * Self.stride
        counters.increment(start + bucket)
        counters.increment(start + bounds.count + 1, by: nanos)
    }

    /// Cumulative counts per bound of histogram `series` (the last is +Inf, the total),
    /// and its sum in seconds.
    func snapshot(_ series: Int) -> (cumulative: [UInt64], sumSeconds: Double) {
        let start = series * Self.stride
        var running: UInt64 = 0
        let cumulative = (0...Self.boundsNanos.count).map { bucket in
            running &+= counters.value(start + bucket)
            return running
        }
        return (cumulative, Double(counters.value(start + Self.boundsNanos.count + 1)) / 1e9)
    }

    /// Whether histogram `series` recorded nothing (empty series are left out).
    func isEmpty(_ series: Int) -> Bool {
        let start = series * Self.stride
        return (0...Self.boundsNanos.count).allSatisfy { counters.value(start + $0) == 0 }
    }
}
