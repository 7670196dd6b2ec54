/// What set the incident off, for the words that name it. A capacity drop (an outage, a
/// brownout, dips, a replay) keeps the wording the charts had before load triggers existed, and
/// so does a run without any trigger; a rise of the load (`load.spike`, `load.profile`,
/// `load.csv`) with capacity steady is named as the spike, because "after the drop" or "while
/// capacity is down" would describe something that did not happen.
///
/// A capacity drop and a load spike in one run are both triggers: the incident starts with the
/// earlier and ends with the later, and the words name neither alone. The server's error window
/// (`server.errors.at`) alone is named as errors; with another trigger the words name the first
/// trigger, and "the triggers".
package enum IncidentTrigger: Equatable {
    case capacityDrop
    case loadSpike
    case dropAndSpike
    case errorWindow
    /// An error window with a drop or a spike (in one run, or in different panels).
    case errorsAndOthers

    /// A load spike only when every window is one: with a mix (panels of variants where some
    /// drop capacity) the shared words must not name the spike for a panel that had a drop.
    /// Both when a panel has both, or some panels a spike and others a drop.
    /// An error window only when every drawn window is one and no panel has another trigger besides.
    package init(_ windows: [IncidentMarks.Window?]) {
        let drawn = windows.compactMap { $0 }
        if drawn.contains(where: { $0.errors != nil || $0.errorsToo }) {
            self = drawn.allSatisfy { $0.errors != nil && !$0.errorsToo } ? .errorWindow : .errorsAndOthers
        } else if !windows.isEmpty && drawn.count == windows.count && drawn.allSatisfy({ $0.load != nil }) {
            self = .loadSpike
        } else if drawn.contains(where: \.spikeToo) || (drawn.contains { $0.load != nil } && drawn.contains { $0.load == nil }) {
            self = .dropAndSpike
        } else {
            self = .capacityDrop
        }
    }

    /// The panels' legend of the dashed recovery marker: what its seconds count from.
    package var recoveryLegend: String {
        switch self {
        case .capacityDrop: "dashed: recovery, s after the drop"
        case .loadSpike: "dashed: recovery, s after the spike began"
        case .dropAndSpike: "dashed: recovery, s after the first trigger"
        case .errorWindow: "dashed: recovery, s after the errors began"
        case .errorsAndOthers: "dashed: recovery, s after the first trigger"
        }
    }

    /// The time the trigger lasts, as captions say it ("… above capacity while capacity is down").
    package var during: String {
        switch self {
        case .capacityDrop: "while capacity is down"
        case .loadSpike: "during the load spike"
        case .dropAndSpike: "while capacity is down or the load is up"
        case .errorWindow: "while the server answers errors"
        case .errorsAndOthers: "while a trigger is on"
        }
    }

    /// The time after the trigger, as captions say it ("Retries that keep coming after capacity returns …").
    package var after: String {
        switch self {
        case .capacityDrop: "after capacity returns"
        case .loadSpike: "after the spike ends"
        case .dropAndSpike: "after capacity returns and the spike ends"
        case .errorWindow: "after the error window ends"
        case .errorsAndOthers: "after the triggers end"
        }
    }

    /// The end of the trigger in the report's findings ("recovered 12 s after the trigger ended").
    package var ended: String {
        switch self {
        case .capacityDrop: "the trigger ended"
        case .loadSpike: "the load spike ended"
        case .dropAndSpike: "the drop and the spike ended"
        case .errorWindow: "the error window ended"
        case .errorsAndOthers: "the triggers ended"
        }
    }
}
