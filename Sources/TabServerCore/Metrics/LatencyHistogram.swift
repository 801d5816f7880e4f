/// Durations counted into fixed buckets, Prometheus style. Recording is two relaxed atomic
/// adds (a bucket and the sum); the cumulative counts are computed only when scraped.
final class LatencyHistogram: Sendable {
    /// Upper bounds in nanoseconds: 0.5 ms to 10 s, roughly ×2.5 apart.
    static let boundsNanos: [UInt64] = [
        500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000,
        500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
    ]
    /// The same bounds in seconds, as the `le` label prints them.
    static let boundLabels = [
        "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10",
    ]

    /// One counter per bound, and a last one for larger durations (+Inf).
    private let buckets: [MetricCounter]
    private let sumNanos = MetricCounter()

    init() {
        buckets = (0...Self.boundsNanos.count).map { _ in MetricCounter() }
    }

    /// Counts one duration.
    @inline(__always)
    func record(nanos: UInt64) {
        var index = 0
        let bounds = Self.boundsNanos
        while index < bounds.count && nanos > bounds[index] { index += 1 }
        buckets[index].increment()
        sumNanos.increment(by: nanos)
    }

    /// Cumulative counts per bound (the last is +Inf, the total), and the sum in seconds.
    var snapshot: (cumulative: [UInt64], sumSeconds: Double) {
        var running: UInt64 = 0
        let cumulative = buckets.map { bucket in
            running &+= bucket.value
            return running
        }
        return (cumulative, Double(sumNanos.value) / 1e9)
    }

    /// Whether anything was recorded (empty series are left out of the exposition).
    var isEmpty: Bool { buckets.allSatisfy { $0.value == 0 } }
}
