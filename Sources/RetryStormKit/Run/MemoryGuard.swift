import Foundation
import RetryStormEngine

/// Refuses, before anything runs, work whose estimated memory exceeds what this machine has.
public enum MemoryGuard {
    /// The share of physical memory a run may plan to use.
    static let share = 0.8

    /// Throws a ``ScenarioError`` naming the knob to turn when `parallel` concurrent replications
    /// of `scenario` would not fit.
    public static func check(_ loaded: LoadedScenario, parallel: Int,
                             physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory) throws(ScenarioError) {
        try check(loaded.base, parallel: parallel, at: loaded.location(of: "clients.count"), physicalMemory: physicalMemory)
    }

    public static func check(_ scenario: Scenario, parallel: Int, at location: SourceLocation,
                             physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory) throws(ScenarioError) {
        let e = ResourceEstimate(scenario)
        let need = Double(e.bytesPerReplication) * Double(max(1, parallel))
        let have = Double(physicalMemory) * share
        guard need > have else { return }
        let gib = { (b: Double) in Format.fixed(b / 1_073_741_824, 1) }
        var fix = "lower clients.count or the horizon"
        if parallel > 1 { fix += ", or run fewer --jobs" }
        throw ScenarioError(
            location, field: "clients.count",
            "needs about \(gib(need)) GiB (\(Format.grouped(Int64(e.expectedOperations))) operations expected, up to \(Format.grouped(Int64(e.peakOperations))) at once, × \(max(1, parallel)) parallel replications) but this machine has \(gib(Double(physicalMemory))) GiB; \(fix)")
    }
}
