import GSLSupport
import RetryPolicy

/// The `queue` server model in first-in first-out order without congestion, solved as requests
/// arrive instead of event by event.
///
/// In FIFO order a request's start is fixed when it arrives: it is the later of its arrival and
/// the moment the first of the `workers` becomes free after serving every request before it (the
/// Lindley recursion; Kiefer–Wolfowitz for several workers). Its service time can be drawn then
/// too — the service stream is drawn in start order either way, and starts are in arrival order —
/// so its completion is known at once. The model therefore needs no event for a worker finishing,
/// only for an answer somebody waits for: a request whose client will have timed out by then is
/// counted as served and wasted in the bucket it completes in, and that is all. In a collapsed
/// server nearly every request is such a request. The results are those of ``QueueServer`` (which
/// still serves LIFO order and congestion, where the future matters) up to the order of
/// simultaneous events.
struct FIFOQueueServer: ServerModel, ~Copyable {
    let workers: Int
    let limit: Int
    let dropExpired: Bool
    let service: Scenario.ServiceTime
    /// Nominal-seconds of profile integral that one unit of work needs: workers / capacity.
    let workScale: Double
    let profile: CapacityProfile
    let flat: Bool
    let horizon: Int64
    /// Report every served and dropped request with an event, even when its client has stopped
    /// waiting: the engine then still has work to do at that moment (applied writes, the error
    /// mix, the response's network hop).
    let reportAll: Bool
    /// Hand answers the client waits for back to the engine at once instead of as events (the
    /// engine settles attempts ahead; see ``RunFeatures/settleAhead``).
    let settleAhead: Bool
    private let random: RandomStream
    /// When each worker is next free (one entry per worker), least first.
    private var free: MinHeap<Int64>
    /// With a queue limit: the moments queued requests reach the head of the queue, in order
    /// (non-decreasing); requests still waiting are those whose moment is still ahead. Without a
    /// limit nobody needs the queue's length between bucket ends, and a collapsed server's
    /// backlog (over a hundred million requests at ten million clients) would cost 8 bytes each.
    private var starts: ChunkedQueue<Int64>
    private let exactQueue: Bool
    /// Queued requests by the time bucket their start falls in (`startKey`), for the queue's
    /// length at bucket ends, whether or not `starts` is kept.
    private var queuedByStartBucket: RawBuffer<Int>
    private let bucketWidth: Int64
    /// `startKey` of the horizon: starts at or after it never happen.
    private let horizonKey: Int
    private var queuedTotal = 0
    private var startedKeys = 0
    private var startedTotal = 0
    /// Answers and drops that need an event, earliest first: a FIFO when one worker finishes
    /// requests in arrival order, a heap when several overtake each other.
    private var pendingInOrder: Ring<Event>
    private var pendingHeap: EventHeap
    /// Σ (min(head time, horizon) − arrival) of queued requests, nanoseconds: ∫ queue length dt
    /// (for the mean wait by Little's law).
    private var area = 0.0
    private(set) var admitted: Int64 = 0
    private(set) var busyUntil: Int64 = 0

    static let droppedFlag: UInt8 = 2

    /// - Parameter bucket: the width of the time series' buckets, nanoseconds: the queue's length is
    ///   asked for at their ends and at the horizon only.
    init(
        _ m: Scenario.QueueModel, capacity: Double, profile: CapacityProfile, horizon: Int64, bucket: Int64,
        reportAll: Bool, settleAhead: Bool, random: consuming RandomStream
    ) {
        precondition(!m.lifo && m.congestion == 0, "FIFOQueueServer serves FIFO order without congestion")
        workers = m.workers
        limit = m.limit ?? Int.max
        dropExpired = m.dropExpired
        service = m.service
        workScale = Double(m.workers) / capacity
        self.profile = profile
        flat = profile.segments.isEmpty
        self.horizon = horizon
        self.reportAll = reportAll
        self.settleAhead = settleAhead
        self.random = random
        free = MinHeap(capacity: m.workers)
        for _ in 0..<m.workers { free.push(0) }
        starts = ChunkedQueue()
        exactQueue = m.limit != nil
        bucketWidth = max(1, bucket)
        horizonKey = Int((horizon + bucketWidth - 1) / bucketWidth)
        queuedByStartBucket = RawBuffer(capacity: horizonKey + 1)
        for _ in 0...horizonKey { queuedByStartBucket.append(0) }
        pendingInOrder = Ring(capacity: m.workers == 1 ? 1024 : 16)
        pendingHeap = EventHeap(capacity: m.workers == 1 ? 16 : 1024)
    }

    var inService: Int { 0 }

    /// The time bucket a start at `t` falls in; starts at or after the horizon share one key.
    @inline(__always) private func startKey(_ t: Int64) -> Int { t >= horizon ? horizonKey : Int(t / bucketWidth) }

    /// Requests queued and not yet started by `t`, exact when `t` is a bucket end or the horizon
    /// (the recorder asks at each bucket's end in turn); elsewhere, those not started by the start
    /// of `t`'s bucket. `t` must not decrease from call to call.
    mutating func queueLength(before t: Int64) -> Int {
        let key = startKey(t)
        while startedKeys < key {
            startedTotal += queuedByStartBucket[startedKeys]
            startedKeys += 1
        }
        return queuedTotal - startedTotal
    }

    /// ∫ queue length dt up to `end`, request·seconds. Each queued request added its wait up to
    /// the horizon as it arrived; a run that ends earlier has no queued request that starts between
    /// `end` and the horizon (every start is a finish of a request before it, and ``busyUntil``
    /// covers those, up to the horizon), so only those that never start waited less, by
    /// horizon − `end` each.
    func waitingArea(until end: Int64) -> Double {
        (area - Double(queuedByStartBucket[horizonKey]) * Double(horizon - min(end, horizon))) / 1e9
    }

    @inline(__always) func peekEvent() -> Event? { workers == 1 ? pendingInOrder.peekFront() : pendingHeap.peek() }

    @inline(__always) func upcomingSlot() -> UInt32? { workers == 1 ? pendingInOrder.peek(at: 1)?.slot : nil }

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64 {
        recorder.offered()
        if exactQueue {
            while starts.count > 0 && starts.peekFrontUnchecked() <= now { _ = starts.popFrontUnchecked() }
        }
        let firstFree = free.minUnchecked
        if firstFree <= now {
            admitted &+= 1
            return start(r, at: now, agenda: &agenda, recorder: &recorder)
        }
        if exactQueue && starts.count >= limit {
            sink.respond(r, .shed)
            return .max
        }
        // Queued until the first worker is free; requests queued before it go first, and each of
        // them has already moved that moment on.
        admitted &+= 1
        area += Double(min(firstFree, horizon) &- now)
        if exactQueue { starts.pushBack(firstFree) }
        queuedByStartBucket[startKey(firstFree)] += 1
        queuedTotal += 1
        if dropExpired && firstFree >= r.deadline {
            // It reaches the head after its client gave up: dropped there, no worker's time spent.
            if firstFree < horizon {
                recorder.count(.expired, at: firstFree)
                if reportAll { report(firstFree, r, dropped: true, agenda: &agenda) }
            }
            return .max
        }
        return start(r, at: firstFree, agenda: &agenda, recorder: &recorder)
    }

    /// One request's work, in units (mean 1).
    @inline(__always) private func work() -> Double { service.work(random) }

    /// The first free worker serves `r` from `t`. Returns the answer's time if it is settled ahead
    /// (see ``receive(_:now:agenda:recorder:sink:)``), else `Int64.max`.
    @inline(__always) private mutating func start(_ r: Request, at t: Int64, agenda: inout Agenda, recorder: inout Recorder) -> Int64 {
        // Starting at or after the horizon it never starts: no draw (the event-driven model would
        // not draw it either), and every request queued after it starts later still.
        guard t < horizon else { return .max }
        let units = work() * workScale
        let done = flat ? Time.adding(t, Time.nanoseconds(seconds: units)) : profile.finishTime(from: t, work: units)
        // A permanent outage never finishes it: that worker stays busy past the horizon.
        setFirstFree(done)
        guard done < horizon else {
            // Still at work at the horizon: the run lasts to it, as the event-driven model's
            // pending completion would make it. (A request that never finishes is no happening.)
            if done != .max { busyUntil = horizon }
            return .max
        }
        busyUntil = max(busyUntil, done)
        recorder.count(.served, at: done)
        // The client's timeout, scheduled when it sent, comes first when both fall at one instant.
        if done < r.deadline && settleAhead { return done }
        if reportAll || done < r.deadline {
            report(done, r, dropped: false, agenda: &agenda)
        } else {
            recorder.count(.wasted, at: done)
        }
        return .max
    }

    private mutating func report(_ t: Int64, _ r: Request, dropped: Bool, agenda: inout Agenda) {
        let e = agenda.make(
            time: t, kind: .serviceDone, slot: r.slot, generation: r.generation,
            aux: (r.query ? 1 : 0) | (dropped ? Self.droppedFlag : 0))
        if workers == 1 { pendingInOrder.pushBack(e) } else { pendingHeap.push(e) }
    }

    /// Replaces the earliest free time (the worker just assigned) with `t`.
    @inline(__always) private mutating func setFirstFree(_ t: Int64) { free.replaceMinUnchecked(t) }

    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        let e: Event
        if workers == 1 {
            e = pendingInOrder.popFrontUnchecked()
        } else {
            e = pendingHeap.peek()!
            pendingHeap.removeMinUnchecked()
        }
        let r = Request(slot: e.slot, generation: e.generation, deadline: 0, query: e.aux & 1 != 0)
        if e.aux & Self.droppedFlag != 0 { sink.dropped(r) } else { sink.respond(r, .ok) }
    }
}
