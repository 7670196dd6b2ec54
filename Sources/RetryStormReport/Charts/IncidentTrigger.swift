/// What set the incident off, for the words that name it. A capacity drop (an outage, a
/// brownout, dips, a replay) keeps the wording the charts had before load triggers existed, and
/// so does a run without any trigger; a rise of the load (`load.spike`, `load.profile`,
/// `load.csv`) with capacity steady is named as the spike, because "after the drop" or "while
/// capacity is down" would describe something that did not happen.
package enum IncidentTrigger: Equatable {
    case capacityDrop
    case loadSpike

    /// A load spike only when every window is one: with a mix (panels of variants where some
    /// drop capacity) the shared words must not name the spike for a panel that had a drop.
    package init(_ windows: [IncidentMarks.Window?]) {
        let spike = !windows.isEmpty && windows.allSatisfy { $0?.load != nil }
        self = spike ? .loadSpike : .capacityDrop
    }

    /// The panels' legend of the dashed recovery marker: what its seconds count from.
    package var recoveryLegend: String {
        switch self {
        case .capacityDrop: "dashed: recovery, s after the drop"
        case .loadSpike: "dashed: recovery, s after the spike began"
        }
    }

    /// The time the trigger lasts, as captions say it ("… above capacity while capacity is down").
    package var during: String {
        switch self {
        case .capacityDrop: "while capacity is down"
        case .loadSpike: "during the load spike"
        }
    }

    /// The time after the trigger, as captions say it ("Retries that keep coming after capacity returns …").
    package var after: String {
        switch self {
        case .capacityDrop: "after capacity returns"
        case .loadSpike: "after the spike ends"
        }
    }

    /// The end of the trigger in the report's findings ("recovered 12 s after the trigger ended").
    package var ended: String {
        switch self {
        case .capacityDrop: "the trigger ended"
        case .loadSpike: "the load spike ended"
        }
    }
}
