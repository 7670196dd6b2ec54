import GSLSupport
import RetryPolicy

/// The `queue` server model: a FIFO queue in front of `workers` workers that together serve the
/// profile's capacity. A full queue answers 503 at once. Abandoned requests are still served
/// (wasted work) unless `dropExpired` skips those whose deadline has passed when they reach the head.
struct QueueServer: ServerModel, ~Copyable {
    let workers: Int
    let limit: Int
    let dropExpired: Bool
    let exponential: Bool
    /// Nominal-seconds of profile integral that one unit of work needs: workers / capacity.
    let workScale: Double
    let profile: CapacityProfile
    let flat: Bool
    private(set) var inService = 0
    /// Waiting requests as `slot << 32 | generation`: 8 bytes each, since a collapsed server's
    /// backlog can hold tens of millions.
    private var waiting: ChunkedQueue<UInt64>
    /// Their deadlines, in the same order; kept only when `dropExpired` needs them.
    private var deadlines: ChunkedQueue<Int64>
    /// One pending completion per busy worker, earliest first.
    private var completions: EventHeap

    init(_ m: Scenario.QueueModel, capacity: Double, profile: CapacityProfile) {
        workers = m.workers
        limit = m.limit ?? Int.max
        dropExpired = m.dropExpired
        exponential = m.service == .exponential
        workScale = Double(m.workers) / capacity
        self.profile = profile
        flat = profile.segments.isEmpty
        waiting = ChunkedQueue()
        deadlines = ChunkedQueue()
        completions = EventHeap(capacity: m.workers)
    }

    var queueLength: Int { waiting.count }
    var allocatedBytes: Int { waiting.allocatedBytes + deadlines.allocatedBytes + completions.allocatedBytes }

    @inline(__always) func peekEvent() -> Event? { completions.peek() }

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda,
                          random: borrowing RandomStream, recorder: borrowing Recorder) -> Response? {
        recorder.offered()
        if inService < workers {
            start(r, now: now, agenda: &agenda, random: random)
            return nil
        }
        if waiting.count >= limit {
            return Response(slot: r.slot, generation: r.generation, status: 503, retryAfter: -1, rejected: true)
        }
        waiting.pushBack(UInt64(r.slot) << 32 | UInt64(r.generation))
        if dropExpired { deadlines.pushBack(r.deadline) }
        return nil
    }

    mutating func handleNext(now: Int64, agenda: inout Agenda,
                             random: borrowing RandomStream, recorder: borrowing Recorder) -> Response? {
        let e = completions.peek()!
        completions.removeMin()
        inService -= 1
        recorder.count(.served)
        while waiting.count > 0 {
            let packed = waiting.popFront()
            let deadline = dropExpired ? deadlines.popFront() : Int64.max
            if now >= deadline {
                recorder.count(.expired)
                continue
            }
            let next = Request(slot: UInt32(truncatingIfNeeded: packed >> 32), generation: UInt32(truncatingIfNeeded: packed), deadline: deadline)
            start(next, now: now, agenda: &agenda, random: random)
            break
        }
        return Response(slot: e.slot, generation: e.generation, status: 200, retryAfter: -1, rejected: false)
    }

    @inline(__always) private mutating func start(_ r: Request, now: Int64, agenda: inout Agenda,
                                                  random: borrowing RandomStream) {
        inService += 1
        let work = (exponential ? random.exponential(mean: 1) : 1) * workScale
        let done: Int64
        if flat {
            done = now &+ Time.nanoseconds(seconds: work)
        } else {
            done = profile.finishTime(from: now, work: work)
        }
        // A permanent outage never finishes the request; the horizon ends the run instead.
        if done != .max {
            completions.push(agenda.make(time: done, kind: .serviceDone, slot: r.slot, generation: r.generation))
        }
    }
}
