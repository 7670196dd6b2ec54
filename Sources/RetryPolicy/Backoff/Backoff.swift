// `pow` and `tanh` come from the C math library; nothing else in the policy library needs the
// platform. A plain import, not `@_exported`: an app that imports RetryPolicy does not get libc's
// names in its files. (Inlined code still calls the same libm functions, so delays stay bit-identical.)
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// A backoff schedule: kind, base, cap, growth and jitter.
///
/// **Exponent convention.** Retries are numbered from 1: retry `n` is the wait after the `n`-th
/// failed attempt. With `exponentOffset` 0 (the default) the first retry's exponential term is
/// `base` — botocore (`r × 2^(n−1)`), gRPC A6, resilience4j, Polly and the offline-first chapter's
/// `base · 2^attempt` with attempt 0 for the first retry all agree on this. The AWS blog's simulator
/// counts the attempt before the first retry, so its first term is `base · 2`: set `exponentOffset`
/// to 1 to reproduce it.
///
/// All times are ``Nanoseconds`` (or `Duration`s, through the disfavoured initializer).
///
/// ```swift
/// // AWS "full jitter": U[0, min(1 s · 2^(n−1), 20 s)) before retry n.
/// let backoff = Backoff(kind: .exponential, base: .seconds(1), max: .seconds(20), jitter: .full)
/// var memory = 0.0
/// var random = SystemUniformSource()
/// let firstWait = backoff.delay(retry: 1, memory: &memory, random: &random)  // nanoseconds, in [0, 1 s)
/// ```
public struct Backoff: Sendable, Hashable, Codable {
    /// The shape of the un-jittered delay: none, constant, linear or exponential.
    public var kind: BackoffKind
    /// The first delay (constant, linear, exponential) and the floor of decorrelated jitter.
    public var base: Nanoseconds
    /// The cap on the delay. Applied before jitter unless `capAfterJitter` is set.
    public var max: Nanoseconds
    /// The growth factor of `exponential` (2 in most libraries; gRPC is configurable, cenkalti and
    /// resilience4j use 1.5).
    public var multiplier: Double
    /// How the delay is randomised (``Jitter/none`` by default: every client waits the same).
    public var jitter: Jitter
    /// Added to the exponent of `exponential`; see the exponent convention above.
    public var exponentOffset: Int
    /// Cap the jittered delay instead of the un-jittered one (resilience4j's `max` overloads and
    /// Polly's `MaxDelay` clamp after randomisation; the AWS SDKs, gRPC and cenkalti before it).
    public var capAfterJitter: Bool
    /// How the first retry differs from the formula, if at all.
    public var firstRetry: FirstRetry
    /// Once the un-jittered term exceeds `max`, wait exactly `max` with no jitter
    /// (aws-sdk-go-v2's legacy `backoffDelay`: `r × 2^a` until `a > log2(MaxBackoff)`, then 20 s flat).
    public var plateauUnjittered: Bool
    /// When > 0, exponential growth truncates to a multiple of this at every step, as integer
    /// libraries do: resilience4j multiplies whole milliseconds (`long`), so 500 ms × 1.5 gives
    /// 500, 750, 1125, 1687, 2530 ms. Costs O(n) per delay; 0 (the default) is exact and O(1).
    public var stepRounding: Nanoseconds

    /// The first retry's exception to the formula.
    public enum FirstRetry: UInt8, Sendable, Hashable, Codable, CaseIterable {
        /// No exception.
        case scheduled
        /// The first retry never waits (urllib3: `backoff = 0` while `consecutive_errors ≤ 1`).
        case immediate
        /// The first retry waits exactly `base`, without jitter (Finagle's `equalJittered`: 5 s,
        /// then U[5, 10), U[10, 20) …).
        case unjittered
    }

    /// A schedule; `base`, `max` and `stepRounding` in nanoseconds. The defaults are the plain
    /// formula: ×2 growth, no jitter, the exponent convention above, the cap before jitter, no
    /// exception for the first retry, no plateau and exact (unrounded) growth.
    ///
    /// - Parameters:
    ///   - kind: the shape of the delay.
    ///   - base: the first delay, ≥ 0 (0: every delay is 0, as urllib3's default `backoff_factor`).
    ///   - max: the cap on the delay, ≥ 0.
    ///   - multiplier: the growth factor of `exponential`, > 0; ignored by the other kinds.
    ///   - jitter: the randomisation; a fraction of `proportional` or `additive` lies in [0, 1].
    ///   - exponentOffset: added to the exponent of `exponential`.
    ///   - capAfterJitter: cap the jittered delay instead of the un-jittered one.
    ///   - firstRetry: the first retry's exception to the formula.
    ///   - plateauUnjittered: once the term exceeds `max`, wait exactly `max`.
    ///   - stepRounding: when > 0, truncate exponential growth to a multiple of it at every step.
    ///
    /// ```swift
    /// // gRPC A6's example: 0.1 s × 2^(n−1), capped at 1 s, ±20 %.
    /// let grpc = Backoff(kind: .exponential, base: 100_000_000, max: 1_000_000_000, jitter: .proportional(0.2))
    /// ```
    public init(
        kind: BackoffKind, base: Nanoseconds, max: Nanoseconds, multiplier: Double = 2,
        jitter: Jitter = .none, exponentOffset: Int = 0, capAfterJitter: Bool = false,
        firstRetry: FirstRetry = .scheduled, plateauUnjittered: Bool = false, stepRounding: Nanoseconds = 0
    ) {
        self.kind = kind
        self.base = base
        self.max = max
        self.multiplier = multiplier
        self.jitter = jitter
        self.exponentOffset = exponentOffset
        self.capAfterJitter = capAfterJitter
        self.firstRetry = firstRetry
        self.plateauUnjittered = plateauUnjittered
        self.stepRounding = stepRounding
    }

    /// A schedule with its times as `Duration`s (truncated to whole nanoseconds): `base`, `max` and
    /// `stepRounding` mean what they mean in the ``Nanoseconds`` initializer.
    @_disfavoredOverload
    public init(
        kind: BackoffKind, base: Duration, max: Duration, multiplier: Double = 2,
        jitter: Jitter = .none, exponentOffset: Int = 0, capAfterJitter: Bool = false,
        firstRetry: FirstRetry = .scheduled, plateauUnjittered: Bool = false, stepRounding: Duration = .zero
    ) {
        self.init(
            kind: kind, base: Time.nanoseconds(base), max: Time.nanoseconds(max), multiplier: multiplier, jitter: jitter,
            exponentOffset: exponentOffset, capAfterJitter: capAfterJitter, firstRetry: firstRetry,
            plateauUnjittered: plateauUnjittered, stepRounding: Time.nanoseconds(stepRounding))
    }

    /// Retry immediately, every time.
    public static let immediate = Backoff(kind: .none, base: 0, max: 0)

    /// The un-jittered delay of retry `n` (n ≥ 1) in nanoseconds, as a Double; capped at `max`
    /// unless `capAfterJitter`. For the simulator's resource estimate (how long operations can
    /// last) and tests; an app only needs ``delay(retry:memory:random:)``.
    @_spi(Simulation) public func envelope(retry n: Int) -> Double { cappedTerm(retry: n) }

    /// The un-jittered delay of retry `n` before the cap, in nanoseconds; may be +inf. For the
    /// simulator's equivalence of grid points (does the cap ever bind?).
    @_spi(Simulation) public func rawEnvelope(retry n: Int) -> Double { rawTerm(retry: n) }

    /// ``envelope(retry:)``, for inlined code (which cannot call SPI).
    @inlinable @inline(__always) func cappedTerm(retry n: Int) -> Double {
        let raw = rawTerm(retry: n)
        return capAfterJitter ? raw : Swift.min(raw, Double(max))
    }

    /// The un-jittered, uncapped term of retry `n`; may be +inf.
    @inlinable @inline(__always) func rawTerm(retry n: Int) -> Double {
        let b = Double(base)
        switch kind {
        case .none: return 0
        case .constant: return b
        case .linear: return b * Double(n)
        case .exponential:
            let e = n - 1 + exponentOffset
            if stepRounding > 0 && e > 0 {
                // Integer growth, truncated at every step; stops early once saturated.
                let unit = Double(stepRounding)
                var d = b
                for _ in 0..<e {
                    d = (d * multiplier / unit).rounded(.down) * unit
                    if d >= 9.2e18 { return .infinity }
                }
                return d
            }
            if multiplier == 2 && e >= -1000 && e <= 1000 {
                // Exact and much cheaper than pow: 2^e built from its exponent bits.
                return b * Double(sign: .plus, exponent: e, significand: 1)
            }
            // An overflow to +inf is absorbed by the cap.
            return b * pow(multiplier, Double(e))
        }
    }

    /// The delay before retry `n` (n ≥ 1), in nanoseconds, never negative.
    ///
    /// - Parameters:
    ///   - n: the retry number, 1 for the wait after the first failed attempt.
    ///   - memory: per-operation state of the stateful jitters (the previous sleep of
    ///     `decorrelated` in nanoseconds, the previous `next` of `decorrelatedV2`). Start it at 0
    ///     and keep it in the operation's record between retries.
    ///   - random: draws exactly one value for every jitter but `none`, except where the first
    ///     retry or the plateau are un-jittered.
    @inlinable @inline(__always) public func delay<R: UniformSource & ~Copyable>(
        retry n: Int, memory: inout Double, random: inout R
    ) -> Nanoseconds {
        if kind == .none { return 0 }
        let cap = Double(max)
        if n <= 1 && firstRetry == .immediate { return 0 }
        if n <= 1 && firstRetry == .unjittered { return Self.nanoseconds(Swift.min(Double(base), cap)) }
        if plateauUnjittered && rawTerm(retry: n) > cap { return max }
        var d = cappedTerm(retry: n)
        switch jitter {
        case .none:
            break
        case .full:
            d = random.nextUniform() * d
        case .equal:
            d = d / 2 + random.nextUniform() * (d / 2)
        case .decorrelated:
            // AWS blog: sleep = min(cap, random_between(base, sleep * 3)), sleep₀ = base.
            let b = Double(base)
            let prev = memory > 0 ? memory : b
            d = Swift.min(cap, b + random.nextUniform() * (3 * prev - b))
            memory = d
        case .decorrelatedV2:
            let t = Double(n - 1) + random.nextUniform()
            let next = pow(2, t) * tanh((4 * t).squareRoot())
            d = (next - memory) / 1.4 * Double(base)
            memory = next
        case .proportional(let f):
            d = d * (1 - f + 2 * f * random.nextUniform())
        case .additive(let f):
            d = d + random.nextUniform() * f * d
        }
        if capAfterJitter || jitter == .decorrelatedV2 { d = Swift.min(d, cap) }
        return Self.nanoseconds(d)
    }

    /// A delay in (fractional) nanoseconds rounded to whole ones: never negative, saturating.
    @inlinable static func nanoseconds(_ d: Double) -> Nanoseconds {
        if !(d > 0) { return 0 }
        return d >= 9.2e18 ? .max : Int64(d.rounded(.toNearestOrEven))
    }
}
