import RetryStormEngine
import Testing

/// The log-binned histogram behind services.csv's and edges.csv's latencies: exact values from
/// hand-placed samples, and its stated resolution (a quantile within 1/256 of the true order
/// statistic, exact below 256 ns).
@Suite("Latency histogram")
struct LatencyHistogramTests {
    static func histogram(_ values: [Int64], max: Int64 = 3_600_000_000_000) -> LatencyHistogram {
        var h = LatencyHistogram(maxValue: max)
        for v in values { h.record(v) }
        return h
    }

    /// Below 256 ns every nanosecond is a bin: 1…100 ns by nearest rank, k = ⌈p·100/100⌉, are
    /// the k-th values themselves.
    @Test("below 256 ns the quantiles are the order statistics exactly: 1…100 ns → p1 1, p50 50, p99 99, p100 100")
    func exactRange() {
        let h = Self.histogram(Array(1...100))
        #expect(h.count == 100)
        #expect(h.quantile(1, per: 100) == 1 && h.quantile(50, per: 100) == 50 && h.quantile(99, per: 100) == 99)
        #expect(h.quantile(100, per: 100) == 100 && h.quantile(0, per: 100) == 1)
        // Rank ⌈0.999 · 100⌉ = 100, by integer arithmetic (no 99.9 rounding either way).
        #expect(h.quantile(999, per: 1000) == 100)
    }

    /// Above 255 ns a value v in [2^e, 2^(e+1)) falls in a bin of width 2^(e−7), read as the
    /// middle of its whole nanoseconds: 1,000 ns (e = 9, width 4) is in [1000, 1003] → 1001.5;
    /// 10 ms (e = 23, width 65,536) in [9,961,472, 10,027,007] → 9,994,239.5; 1 s (e = 29, width
    /// 4,194,304) in [998,244,352, 1,002,438,655] → 1,000,341,503.5.
    @Test("a value's bin, by hand: 1 µs → 1001.5 ns, 10 ms → 9,994,239.5 ns, 1 s → 1,000,341,503.5 ns")
    func binsByHand() {
        #expect(LatencyHistogram.bounds(ofBin: LatencyHistogram.index(1000)) == (1000, 4))
        #expect(LatencyHistogram.bounds(ofBin: LatencyHistogram.index(10_000_000)) == (9_961_472, 65_536))
        #expect(LatencyHistogram.bounds(ofBin: LatencyHistogram.index(1_000_000_000)) == (998_244_352, 4_194_304))
        #expect(Self.histogram([1000, 1001, 1003]).quantile(50, per: 100) == 1001.5)
        #expect(Self.histogram([10_000_000]).quantile(99, per: 100) == 9_994_239.5)
        // 99 values of 1 µs and one of 1 s: the p99 is the 99th (1 µs), the p100 the 1 s.
        let mixed = Self.histogram(Array(repeating: 1000, count: 99) + [1_000_000_000])
        #expect(mixed.quantile(50, per: 100) == 1001.5 && mixed.quantile(99, per: 100) == 1001.5)
        #expect(mixed.quantile(100, per: 100) == 1_000_341_503.5)
    }

    @Test("no value: every quantile is nan")
    func empty() {
        #expect(Self.histogram([]).quantile(50, per: 100).isNaN && Self.histogram([]).count == 0)
    }

    /// The bins tile the line: each value is in its bin's bounds, the bin after a bin starts where
    /// it ends, every width is at most 1/128 of the bin's lower bound (above 255 ns), so the
    /// middle read back is within 1/256 of any value in the bin. Checked at every power of two
    /// and its neighbours up to 2^62, and at 10,000 values spread log-uniformly (a 64-bit LCG).
    @Test("the stated resolution: every value reads back within 1/256 (0.39%), exactly below 256 ns")
    func resolution() {
        var values: [Int64] = Array(0...600)
        for e in 8...62 {
            let p = Int64(1) << e
            values += [p - 1, p, p + 1, p + p / 2]
        }
        var x: UInt64 = 1
        for _ in 0..<10_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int64((x >> 1) >> (x % 55)))
        }
        for v in values {
            let i = LatencyHistogram.index(v)
            let (lower, width) = LatencyHistogram.bounds(ofBin: i)
            #expect(lower <= v && v - lower < width, "\(v) outside bin \(i)")
            // (The bin after the last below 2^63 would start beyond Int64.)
            if lower < Int64(1) << 61 {
                #expect(LatencyHistogram.bounds(ofBin: i + 1).lower == lower + width, "bin \(i + 1) does not start where \(i) ends")
            }
            let read = Self.histogram([v], max: .max).quantile(50, per: 100)
            if v < 256 {
                #expect(read == Double(v))
            } else {
                #expect(width * 128 <= lower, "bin \(i) of \(lower) is \(width) wide")
                #expect(abs(read - Double(v)) <= Double(v) / 256, "\(v) reads \(read)")
            }
        }
    }

    /// Values beyond the bound the histogram was made for are counted in its last bin.
    @Test("a value beyond the bound counts in the last bin")
    func clamped() {
        let h = Self.histogram([5, 1_000_000], max: 100)
        #expect(h.count == 2 && h.quantile(50, per: 100) == 5 && h.quantile(100, per: 100) == 100)
    }
}
