/// An axis with a concrete domain and ticks, ready to place values.
struct ResolvedAxis {
    let scale: Axis.Scale
    /// Domain bounds in data units; both positive on a log axis.
    let lo: Double
    let hi: Double
    let ticks: [Tick]
    /// Unlabelled faint gridlines (2…9 × 10^k on log number axes of at most
    /// three decades; more would crowd the plot).
    let minorTicks: [Double]

    private let logLo: Double
    private let logHi: Double

    init(scale: Axis.Scale, lo: Double, hi: Double, ticks: [Tick], minorTicks: [Double] = []) {
        self.scale = scale
        self.lo = lo
        self.hi = hi
        self.ticks = ticks
        self.minorTicks = minorTicks
        logLo = DecimalMath.log10(lo)
        logHi = DecimalMath.log10(hi)
    }

    /// Position of `value` along the axis, 0 at `lo` and 1 at `hi`. Linear
    /// values outside the domain extrapolate (callers clip); on a log axis
    /// values ≤ `lo` (including zero and negatives) map to 0.
    func fraction(_ value: Double) -> Double {
        switch scale {
        case .linear:
            return hi > lo ? (value - lo) / (hi - lo) : 0.5
        case .log:
            guard value > lo else { return 0 }
            return logHi > logLo ? (DecimalMath.log10(value) - logLo) / (logHi - logLo) : 0.5
        }
    }

    /// `value` mapped onto the pixel interval `start...end` (which may run
    /// backwards, as y does).
    func position(_ value: Double, from start: Double, to end: Double) -> Double {
        start + (end - start) * fraction(value)
    }

    /// Width of the widest tick label at `fontSize`.
    func maxLabelWidth(fontSize: Double) -> Double {
        ticks.map { TextMetrics.width($0.label, fontSize: fontSize) }.max() ?? 0
    }
}
