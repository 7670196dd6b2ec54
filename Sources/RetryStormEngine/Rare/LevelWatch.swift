/// Stops a branch where the backlog (requests waiting or in service) first reaches `up`, or
/// falls to `down`, and keeps the highest it saw: a splitting branch's watch.
struct LevelWatch: LoopWatch {
    @inline(__always) static var watches: Bool { true }
    /// Stop at this backlog or above (`Int.max`: never).
    let up: Int
    /// Stop at this backlog or below (−1: never).
    let down: Int
    private(set) var highest = 0
    /// Whether it stopped the loop at `up` (rather than at `down`, or not at all: the horizon, no events left).
    private(set) var reachedUp = false

    init(up: Int, down: Int) {
        self.up = up
        self.down = down
    }

    mutating func stop(at time: Int64, backlog: Int) -> Bool {
        if backlog > highest { highest = backlog }
        if backlog >= up {
            reachedUp = true
            return true
        }
        return backlog <= down
    }
}

/// Stops at the first event at or after `at` (nanoseconds) and keeps the backlog after each
/// event: the backlog at a checkpoint, the state just past it.
struct TimeWatch: LoopWatch {
    @inline(__always) static var watches: Bool { true }
    let at: Int64
    private(set) var backlog = 0

    init(at: Int64) { self.at = at }

    mutating func stop(at time: Int64, backlog: Int) -> Bool {
        self.backlog = backlog
        return time >= at
    }
}

/// The first stage of a `collapse` estimate: runs from an empty server, cut into excursions
/// (from the backlog leaving 0 to its return). It counts them, their highest backlogs, the
/// collapses and the simulated time; it stops at each excursion's first entrance to `entry` (to
/// copy the state there), at a collapse (a collapse sustained by retries may never end, so the
/// caller starts a fresh run, an empty server being a regeneration point), and when its events
/// run out.
struct ExcursionWatch: LoopWatch {
    @inline(__always) static var watches: Bool { true }
    /// The collapse backlog.
    let top: Int
    /// The level whose first entrances stop the loop (`Int.max`: none).
    var entry = Int.max
    /// Events left before it stops.
    private(set) var eventsLeft: Int64
    /// Excursions ended with this highest backlog, by backlog (a collapse's at `top`).
    private(set) var maxima: [Int]
    private(set) var excursions = 0
    private(set) var entrances = 0
    private(set) var collapses = 0
    /// Nanoseconds simulated, over every run.
    private(set) var countedTime: Int64 = 0
    /// Why it last stopped the loop.
    private(set) var atEntrance = false
    private(set) var atCollapse = false
    private var last: Int64 = 0
    private var current = 0
    private var entered = false

    init(top: Int, events: Int64) {
        self.top = top
        eventsLeft = events
        maxima = Array(repeating: 0, count: top + 1)
    }

    /// Whether its events are spent.
    var spent: Bool { eventsLeft <= 0 }

    /// Starts counting afresh (the excursion under way carries on).
    mutating func resetCounts(events: Int64) {
        eventsLeft = events
        maxima = Array(repeating: 0, count: top + 1)
        excursions = 0
        entrances = 0
        collapses = 0
        countedTime = 0
    }

    /// A fresh run from an empty server at t = 0 follows.
    mutating func restart() {
        last = 0
        current = 0
        entered = false
    }

    mutating func stop(at time: Int64, backlog: Int) -> Bool {
        countedTime &+= time &- last
        last = time
        eventsLeft -= 1
        atEntrance = false
        atCollapse = false
        if backlog == 0 {
            if current > 0 { maxima[current] += 1 }
            current = 0
            entered = false
            return eventsLeft <= 0
        }
        if current == 0 { excursions += 1 }
        if backlog > current { current = Swift.min(backlog, top) }
        if backlog >= top {
            maxima[top] += 1
            collapses += 1
            if entry <= top && !entered { entrances += 1 }
            atCollapse = true
            return true
        }
        if backlog >= entry && !entered {
            entered = true
            entrances += 1
            atEntrance = true
            return true
        }
        return eventsLeft <= 0
    }
}
