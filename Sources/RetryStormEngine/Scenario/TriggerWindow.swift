import RetryPolicy

/// One span of time in which the incident's trigger was on, read from the data the run replays
/// or follows: capacity below nominal (an outage with its ramp, a brownout, a dip, a replayed
/// `server.capacity_csv`), the arrival rate above its base, the clients' own rate (a
/// `load.spike`, `load.profile`, `load.csv`), or the server's error window (`server.errors.at`
/// and `server.errors.duration`).
///
/// The incident (``Scenario/trigger``) runs from the first window's start to the last one's end;
/// the charts shade each window, and the report's words and recovery sentences name them. A
/// window is maximal: capacity pieces that touch (a drop, its plateau and its ramp back) are one.
package struct TriggerWindow: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// Capacity below nominal; `lowest` is its lowest fraction of nominal in the window and
        /// `level` says whether it stays there throughout (an outage without a ramp).
        case capacity(lowest: Double, level: Bool)
        /// The arrival rate above its base; `peak` is the largest multiplier in the window.
        case load(peak: Double)
        /// The server answers errors: the error mix of the window (its shares and the transient status).
        case errors(Scenario.ErrorMix)
    }

    package var kind: Kind
    /// From and to, nanoseconds (`end` may be `Int64.max`: still on at the end of the data).
    package var start: Nanoseconds
    package var end: Nanoseconds

    package init(kind: Kind, start: Nanoseconds, end: Nanoseconds) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// The maximal spans in which `profile` is below nominal, in time order; at most `limit` of
    /// them (a replayed file may hold a million dips: the caller asks for one more than it draws
    /// and takes ``capacityEnvelope(_:)`` beyond).
    /// - Complexity: O(n) for n segments.
    package static func capacity(_ profile: CapacityProfile, limit: Int = .max) -> [TriggerWindow] {
        var out: [TriggerWindow] = []
        for s in profile.segments {
            if out.count > limit { break }
            let low = s.shape == .constant ? s.from : min(s.from, s.to)
            // A piece at or above nominal throughout is no trigger (a replay may write 100% rows).
            let high = s.shape == .constant ? s.from : max(s.from, s.to)
            guard low < 1 else { continue }
            let level = s.shape == .constant || s.from == s.to
            if let last = out.last, last.end == s.start, case .capacity(let l, let lv) = last.kind {
                out[out.count - 1].end = s.end
                out[out.count - 1].kind = .capacity(lowest: min(l, low), level: lv && level && l == low && high == low)
            } else {
                out.append(TriggerWindow(kind: .capacity(lowest: low, level: level && high == low), start: s.start, end: s.end))
            }
        }
        return Array(out.prefix(limit))
    }

    /// One span from the first moment `profile` is below nominal to the last, at its lowest
    /// fraction (not level), without listing the windows between; nil if it never is.
    /// - Complexity: O(n) for n segments, no allocation.
    package static func capacityEnvelope(_ profile: CapacityProfile) -> TriggerWindow? {
        var first: CapacityProfile.Segment?
        var last: CapacityProfile.Segment?
        var lowest = 1.0
        for s in profile.segments {
            let low = s.shape == .constant ? s.from : min(s.from, s.to)
            guard low < 1 else { continue }
            if first == nil { first = s }
            last = s
            lowest = min(lowest, low)
        }
        guard let first, let last else { return nil }
        return TriggerWindow(kind: .capacity(lowest: lowest, level: false), start: first.start, end: last.end)
    }

    /// The maximal spans in which `load`'s multiplier is above 1, in time order (the first and
    /// last points' values hold before and after them).
    /// - Complexity: O(n) for n points.
    package static func load(_ load: LoadProfile, limit: Int = .max) -> [TriggerWindow] {
        let points = load.points
        guard let first = points.first else { return [] }
        var out: [TriggerWindow] = []
        var openAt: Nanoseconds? = first.multiplier > 1 ? 0 : nil
        var peak = first.multiplier
        for (a, b) in zip(points, points.dropFirst()) {
            if out.count >= limit { return out }
            if openAt != nil {
                peak = max(peak, a.multiplier)
                if b.multiplier <= 1 {
                    out.append(TriggerWindow(kind: .load(peak: peak), start: openAt!, end: LoadProfile.crossing(a, b, level: 1)))
                    openAt = nil
                }
            } else if b.multiplier > 1 {
                openAt = a.multiplier > 1 ? a.time : LoadProfile.crossing(a, b, level: 1)
                peak = b.multiplier
            }
            if openAt != nil { peak = max(peak, b.multiplier) }
        }
        if let openAt { out.append(TriggerWindow(kind: .load(peak: max(peak, points.last!.multiplier)), start: openAt, end: .max)) }
        return out
    }
}

extension TriggerWindow {
    /// The server's error window, when it is a trigger (``Scenario/Server/errorWindow``): one
    /// window at most (none when `limit` is 0).
    package static func errors(_ server: Scenario.Server, limit: Int = .max) -> [TriggerWindow] {
        guard limit > 0, let window = server.errorWindow else { return [] }
        return [TriggerWindow(kind: .errors(server.errors), start: window.lowerBound, end: window.upperBound)]
    }
}

extension Scenario {
    /// Every trigger window of the run, capacity's, then the load's, then the error window, each
    /// list in time order (at most `limit` of each kind).
    package func triggerWindows(limit: Int = .max) -> [TriggerWindow] {
        TriggerWindow.capacity(server.profile, limit: limit) + TriggerWindow.load(load, limit: limit)
            + TriggerWindow.errors(server, limit: limit)
    }

    /// Why the horizon is too short to see the incident and its recovery, for a warning on stderr
    /// and in the report; nil when it is not. The trigger must end before the horizon with at
    /// least a tenth of the horizon (and one bucket) left after it, in which recovery can be seen.
    package var horizonWarning: String? {
        guard let trigger else { return nil }
        func seconds(_ t: Nanoseconds) -> String {
            t % 1_000_000_000 == 0 ? "\(t / 1_000_000_000) s" : "\(Double(t) / 1e9) s"
        }
        if trigger.start >= horizon {
            return "the trigger starts at \(seconds(trigger.start)), at or after the horizon (\(seconds(horizon))): the run never sees the incident"
        }
        if trigger.end >= horizon {
            return
                "the trigger is still on at the horizon (\(seconds(horizon))): neither its end nor the recovery can be seen; make the horizon longer"
        }
        let margin = max(bucket, horizon / 10)
        if horizon - trigger.end < margin {
            return
                "the trigger ends at \(seconds(trigger.end)), only \(seconds(horizon - trigger.end)) before the horizon (\(seconds(horizon))): too little time to see a recovery; make the horizon longer"
        }
        return nil
    }
}
