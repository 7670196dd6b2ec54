import GSLSupport
import RetryPolicy

/// The `queue` server model: a queue (FIFO or LIFO) in front of `workers` workers that together
/// serve the profile's capacity. A full queue answers 503 at once. Abandoned requests are still
/// served (wasted work) unless `dropExpired` skips those whose deadline has passed when they reach
/// the head. With `congestion`, service slows as requests pile up. With `rejectCost`, every
/// rejection (a 503 here, a 429 in front) is work: the next worker to free spends `rejectCost` of a
/// service-time draw on it before it takes a request, or an idle worker at once. At most
/// ``owedLimit`` rejections wait for a worker; a rejection beyond them costs nothing, as a listen
/// backlog that overflows refuses the connection before the process sees it. So refusing is paid
/// when it happens: a server that could not keep up with its refusals owes no work once the
/// overload is over.
struct QueueServer: ServerModel, ~Copyable {
    let workers: Int
    let limit: Int
    let dropExpired: Bool
    let lifo: Bool
    let service: Scenario.ServiceTime
    let congestion: Int64
    /// The share of one request's work a rejection costs (`server.reject_cost`; 0: none).
    let rejectCost: Double
    /// Rejections whose work no worker has started yet: each is served before the next request,
    /// as the front end handles a refusal before queued work (a count, not a queue: their work is
    /// drawn when a worker takes one). At most ``owedLimit``.
    private var owedRejections = 0
    /// The most rejections that may wait for a worker (``Scenario/QueueModel/owedRejectionLimit``).
    let owedLimit: Int
    /// Nominal-seconds of profile integral that one unit of work needs: workers / capacity.
    let workScale: Double
    let profile: CapacityProfile
    let flat: Bool
    /// Whether a request keeps its worker when its own work is done, until ``release(now:agenda:recorder:sink:)``:
    /// a service of a call graph whose requests call others and hold their thread meanwhile. Its
    /// `.ok` then means "own work done", and every processed answer holds a worker.
    let holdsWorkers: Bool
    private let random: RandomStream
    private(set) var inService = 0
    /// Waiting requests as `slot << 32 | generation`, the query flag in bit 31 of the slot:
    /// 8 bytes each, since a collapsed server's backlog can hold tens of millions.
    private var waiting: ChunkedQueue<UInt64>
    /// Their deadlines, in the same order; kept only when `dropExpired` needs them.
    private var deadlines: ChunkedQueue<Int64>
    /// One pending completion per busy worker, earliest first.
    private var completions: EventHeap
    /// The request each completion finishes carries the query flag in the event's aux byte.
    private var area = 0.0
    private var areaSince: Int64 = 0
    private(set) var admitted: Int64 = 0
    /// Requests cancelled while they may still wait (hedged copies whose sibling succeeded), by
    /// slot: every request of the slot whose generation is below the mark (0: none). Read only once
    /// something was cancelled: a slot's later requests carry higher generations, so a mark never
    /// needs clearing.
    private var cancelled = RawBuffer<UInt32>(capacity: 16)
    private var anyCancelled = false

    init(
        _ m: Scenario.QueueModel, capacity: Double, profile: CapacityProfile, holdsWorkers: Bool = false,
        random: consuming RandomStream
    ) {
        self.holdsWorkers = holdsWorkers
        workers = m.workers
        limit = m.limit ?? Int.max
        dropExpired = m.dropExpired
        lifo = m.lifo
        service = m.service
        congestion = m.congestion
        rejectCost = m.rejectCost
        owedLimit = m.owedRejectionLimit
        workScale = Double(m.workers) / capacity
        self.profile = profile
        flat = profile.segments.isEmpty
        self.random = random
        waiting = ChunkedQueue()
        deadlines = ChunkedQueue()
        completions = EventHeap(capacity: m.workers)
    }

    /// The same server as `other`, its queue, workers and pending completions copied, drawing
    /// service times from the copy of its stream that `streams` gives.
    init(copying other: borrowing QueueServer, _ streams: inout StreamCopies) {
        workers = other.workers
        limit = other.limit
        dropExpired = other.dropExpired
        lifo = other.lifo
        service = other.service
        congestion = other.congestion
        rejectCost = other.rejectCost
        owedRejections = other.owedRejections
        owedLimit = other.owedLimit
        workScale = other.workScale
        profile = other.profile
        flat = other.flat
        holdsWorkers = other.holdsWorkers
        random = streams.copy(other.random)
        inService = other.inService
        waiting = ChunkedQueue(copying: other.waiting)
        deadlines = ChunkedQueue(copying: other.deadlines)
        completions = EventHeap(copying: other.completions)
        area = other.area
        areaSince = other.areaSince
        admitted = other.admitted
        cancelled = RawBuffer(copying: other.cancelled)
        anyCancelled = other.anyCancelled
        busyUntil = other.busyUntil
    }

    func queueLength(before t: Int64) -> Int { waiting.count }
    private(set) var busyUntil: Int64 = 0

    func waitingArea(until now: Int64) -> Double { (area + Double(waiting.count) * Double(now - areaSince)) / 1e9 }

    @inline(__always) func peekEvent() -> Event? { completions.peek() }

    @inline(__always) func upcomingSlot() -> UInt32? {
        guard waiting.count > 0, !lifo else { return nil }
        return UInt32(truncatingIfNeeded: waiting.peekFrontUnchecked() >> 32) & 0x7FFF_FFFF
    }

    /// Adds the queue length × the time since the last change to the area (Little's law).
    @inline(__always) private mutating func accrue(_ now: Int64) {
        area += Double(waiting.count) * Double(now &- areaSince)
        areaSince = now
    }

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64 {
        recorder.offered()
        if inService < workers {
            admitted &+= 1
            start(r, now: now, agenda: &agenda)
            return .max
        }
        if waiting.count >= limit {
            sink.respond(r, .shed)
            if rejectCost > 0 { rejected(now: now, agenda: &agenda) }
            return .max
        }
        admitted &+= 1
        accrue(now)
        waiting.pushBack(UInt64(r.slot | (r.query ? 0x8000_0000 : 0)) << 32 | UInt64(r.generation))
        if dropExpired { deadlines.pushBack(r.deadline) }
        return .max
    }

    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        let e = completions.peek()!
        completions.removeMinUnchecked()
        if e.slot != Self.rejectionSlot {
            // Cancelled in service: it finishes all the same (wasted work).
            busyUntil = now
            recorder.count(.served)
            let query = e.aux & 1 != 0
            sink.respond(Request(slot: e.slot, generation: e.generation, deadline: 0, query: query), .ok)
            // The worker stays with the request while it calls others.
            if holdsWorkers { return }
        }
        inService -= 1
        takeNext(now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
    }

    /// A request that held its worker (``holdsWorkers``) is done: the worker takes the next one.
    mutating func release(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        inService -= 1
        takeNext(now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
    }

    /// A worker has just freed: it serves an owed rejection or the next waiting request (dropping
    /// the expired ones on the way).
    @inline(__always) private mutating func takeNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        if owedRejections > 0 {
            owedRejections -= 1
            startRejection(now: now, agenda: &agenda)
            return
        }
        while waiting.count > 0 {
            accrue(now)
            let packed = lifo ? waiting.popBackUnchecked() : waiting.popFrontUnchecked()
            let deadline = dropExpired ? (lifo ? deadlines.popBackUnchecked() : deadlines.popFrontUnchecked()) : Int64.max
            let slotBits = UInt32(truncatingIfNeeded: packed >> 32)
            let next = Request(
                slot: slotBits & 0x7FFF_FFFF, generation: UInt32(truncatingIfNeeded: packed),
                deadline: deadline, query: slotBits & 0x8000_0000 != 0)
            if now >= deadline {
                recorder.count(.expired)
                sink.dropped(next)
                continue
            }
            if anyCancelled && isCancelled(next) {
                sink.dropped(next)
                continue
            }
            start(next, now: now, agenda: &agenda)
            break
        }
    }

    /// Cancels request `r` and every earlier request of its slot: one still waiting when a worker
    /// would take it leaves the queue unserved (reported dropped); one in service finishes.
    mutating func cancel(_ r: Request) {
        let i = Int(r.slot)
        while cancelled.count <= i { cancelled.append(0) }
        cancelled[i] = r.generation &+ 1
        anyCancelled = true
    }

    /// Whether `r` was cancelled: its generation is below its slot's mark (wrapping).
    @inline(__always) private func isCancelled(_ r: Request) -> Bool {
        let i = Int(r.slot)
        guard i < cancelled.count, cancelled[i] != 0 else { return false }
        return cancelled[i] &- r.generation &- 1 < 0x8000_0000
    }

    /// One request's work, in units (mean 1).
    @inline(__always) private func work() -> Double { service.work(random) }

    /// The slot a rejection's work carries in its completion event: no operation's (the table
    /// holds fewer than `UInt32.max` slots), so it answers nobody.
    static let rejectionSlot = UInt32.max

    /// Charges a rejection's work: an idle worker starts it now, else it waits for the next to free
    /// unless ``owedLimit`` rejections already wait (then it costs nothing).
    mutating func rejected(now: Int64, agenda: inout Agenda) {
        guard rejectCost > 0 else { return }
        if inService < workers {
            startRejection(now: now, agenda: &agenda)
        } else if owedRejections < owedLimit {
            owedRejections += 1
        }
    }

    /// A worker spends `rejectCost` of a request's work on a rejection, from `now`.
    private mutating func startRejection(now: Int64, agenda: inout Agenda) {
        inService += 1
        let units = rejectCost * work() * workScale
        let done = flat ? Time.adding(now, Time.nanoseconds(seconds: units)) : profile.finishTime(from: now, work: units)
        if done != .max {
            completions.push(agenda.make(time: done, kind: .serviceDone, slot: Self.rejectionSlot, generation: 0, aux: 0))
        }
    }

    @inline(__always) private mutating func start(_ r: Request, now: Int64, agenda: inout Agenda) {
        inService += 1
        let units = work() * workScale
        var done = flat ? Time.adding(now, Time.nanoseconds(seconds: units)) : profile.finishTime(from: now, work: units)
        if congestion > 0 && done != .max {
            // Congestion collapse: every request in the system slows this one down.
            done = Time.adding(done, congestion &* Int64(inService + waiting.count))
        }
        // A permanent outage never finishes the request; the horizon ends the run instead.
        if done != .max {
            completions.push(agenda.make(time: done, kind: .serviceDone, slot: r.slot, generation: r.generation, aux: r.query ? 1 : 0))
        }
    }
}
