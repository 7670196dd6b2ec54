/// How a backoff delay is randomised. Formulas use `d` for the un-jittered delay of the retry
/// (already capped at the maximum unless ``Backoff/capAfterJitter`` is set) and `r` for a uniform
/// value in [0, 1).
public enum Jitter: Sendable, Hashable {
    /// `d`: every client waits exactly the same — the synchronised herd.
    case none
    /// `U[0, d)` — AWS "full jitter" (AWS Architecture Blog, "Exponential Backoff And Jitter",
    /// 2015); the AWS SDKs' standard mode, Envoy, Finagle `exponentialJittered`.
    case full
    /// `d/2 + U[0, d/2)` — the blog's "equal jitter"; Finagle `equalJittered`.
    case equal
    /// `min(max, U[base, 3·prev))` with `prev₀ = base` — the blog's "decorrelated jitter"; the
    /// exponential term is not used, only the previous sleep.
    case decorrelated
    /// Polly v8's `DecorrelatedJitterBackoffV2` (George Polevoy, Polly issue #530): with
    /// `t = a + r` (`a` the 0-based retry index), `next = 2^t · tanh(√(4t))`,
    /// delay = `(next − prev) / 1.4 · base`, `prev = next`. Smooth, median first delay ≈ base.
    case decorrelatedV2
    /// `U[d·(1 − f), d·(1 + f))` — gRPC A6 (f = 0.2), cenkalti/backoff and resilience4j
    /// (f = 0.5), Polly constant/linear (f = 0.25). `f` in [0, 1].
    case proportional(Double)
    /// `d + U[0, f·d)` — RudderStack's mobile SDKs (f = 1: `U[d, 2d)`).
    case additive(Double)
}

extension Jitter {
    /// The spelling in scenario and policy files: `none`, `full`, `equal`, `decorrelated`,
    /// `decorrelated-v2`, `proportional` and `additive` (whose fraction is a separate key).
    public var name: String {
        switch self {
        case .none: "none"
        case .full: "full"
        case .equal: "equal"
        case .decorrelated: "decorrelated"
        case .decorrelatedV2: "decorrelated-v2"
        case .proportional: "proportional"
        case .additive: "additive"
        }
    }
}
