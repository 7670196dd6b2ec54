/// A span or an instant of time in nanoseconds.
///
/// Instants are measured from an epoch the caller chooses: the simulator's t = 0, or an app's clock
/// reading at start-up (or the Unix epoch when a schedule is persisted across restarts). Integer time
/// keeps comparisons exact: no epsilon anywhere in the policy code.
public typealias Nanoseconds = Int64

/// Conversions between seconds, `Duration` and ``Nanoseconds``.
///
/// Every public time parameter of the library also takes a `Duration` (`.seconds(1)`,
/// `.milliseconds(250)`): those overloads convert with ``nanoseconds(_:)`` and call the
/// ``Nanoseconds`` form, which the simulator uses. They are disfavoured, so that a value both
/// forms accept (`.zero`, `nil`, no value at all) picks the ``Nanoseconds`` form, to the same effect.
public enum Time {
    /// 10⁹: a second in ``Nanoseconds`` (`30 * Time.nanosecondsPerSecond` is 30 s).
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// `seconds` rounded to the nearest nanosecond, saturating at ±Int64.max; NaN maps to 0.
    @inlinable public static func nanoseconds(seconds: Double) -> Nanoseconds {
        let ns = seconds * 1e9
        guard ns.isFinite else { return ns.isNaN ? 0 : (ns > 0 ? .max : .min) }
        if ns >= 9.2e18 { return .max }
        if ns <= -9.2e18 { return .min }
        return Int64(ns.rounded(.toNearestOrEven))
    }

    /// Whole seconds as nanoseconds, saturating.
    @inlinable public static func nanoseconds(wholeSeconds s: Int64) -> Nanoseconds {
        s.multipliedReportingOverflow(by: nanosecondsPerSecond).overflow ? (s > 0 ? .max : .min) : s &* nanosecondsPerSecond
    }

    /// Whole milliseconds as nanoseconds, saturating.
    @inlinable public static func nanoseconds(milliseconds: Int64) -> Nanoseconds {
        milliseconds.multipliedReportingOverflow(by: 1_000_000).overflow
            ? (milliseconds > 0 ? .max : .min) : milliseconds &* 1_000_000
    }

    /// A `Duration` in whole nanoseconds, the policy library's unit: truncated toward zero
    /// (attoseconds below a nanosecond are dropped) and saturating at ±Int64.max.
    @inlinable public static func nanoseconds(_ d: Duration) -> Nanoseconds {
        let (s, atto) = d.components
        return adding(nanoseconds(wholeSeconds: s), atto / 1_000_000_000)
    }

    /// Nanoseconds as (fractional) seconds.
    @inlinable public static func seconds(_ ns: Nanoseconds) -> Double { Double(ns) / 1e9 }

    /// `a + b` saturating at Int64's bounds, so that "never" (`.max`) stays never.
    @inlinable public static func adding(_ a: Nanoseconds, _ b: Nanoseconds) -> Nanoseconds {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }
}
