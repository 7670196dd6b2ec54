import RetryPolicy
import RetryStormEngine
import Testing

/// ``Stuck``: judged over the run's last `stuck_window`, wholly after the trigger; users stuck
/// when what succeeds there is under half of what starts, a service when its queue stays full or
/// its goodput is under half of what it is sent; a stray failure never makes a run stuck.
@Suite("Stuck at the horizon")
struct StuckTests {
    static let s = Scenarios.s

    /// The tail is the last window in whole buckets, and only when it starts at or after the
    /// trigger's end and the warmup. 100 one-second buckets, a 20 s window: buckets 80..<100.
    @Test("the tail is the last stuck_window, wholly after the trigger and the warmup, else not judged")
    func tail() {
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: (10 * Self.s, 30 * Self.s), warm: 0, window: 20 * Self.s) == 80..<100)
        // The trigger ends at 80 s exactly: the tail still fits; at 80.5 s it does not.
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: (10 * Self.s, 80 * Self.s), warm: 0, window: 20 * Self.s) == 80..<100)
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: (10 * Self.s, 80 * Self.s + Self.s / 2), warm: 0, window: 20 * Self.s) == nil)
        // No trigger: the run's last window. A window longer than the run, or inside the warmup: not judged.
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: nil, warm: 0, window: 20 * Self.s) == 80..<100)
        #expect(Stuck.tail(buckets: 10, bucket: Self.s, trigger: nil, warm: 0, window: 20 * Self.s) == nil)
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: nil, warm: 90, window: 20 * Self.s) == nil)
        // Rounded up to whole buckets: 2.5 s of 1 s buckets is 3.
        #expect(Stuck.tail(buckets: 100, bucket: Self.s, trigger: nil, warm: 0, window: 5 * Self.s / 2) == 97..<100)
    }

    /// Half is the line, and a shortfall under 3 operations is chance (``Stuck/minimumShortfall``).
    @Test("users are stuck under half of what they start, by at least 3 operations")
    func usersRule() {
        // Half of 1,000 is 500: 497 is 3 short (stuck), 498 only 2 (chance), 500 none.
        #expect(Stuck.users(started: 1000, succeeded: 497) == 1)
        #expect(Stuck.users(started: 1000, succeeded: 498) == 0)
        #expect(Stuck.users(started: 1000, succeeded: 500) == 0)
        #expect(Stuck.users(started: 1000, succeeded: 100) == 1)
        #expect(Stuck.users(started: 1000, succeeded: 980) == 0)
        // 6 started and 0 succeeded is 3 short of half: stuck; 5 and 0 is 2.5 short: chance.
        #expect(Stuck.users(started: 6, succeeded: 0) == 1)
        #expect(Stuck.users(started: 5, succeeded: 0) == 0)
        // Nothing started: nothing to be stuck on.
        #expect(Stuck.users(started: 0, succeeded: 0) == 0)
    }

    @Test("a service is stuck with its queue full through the tail, or its goodput under half of what it is sent")
    func serviceRule() {
        let width = Counter.allCases.count
        var counts = [Int64](repeating: 0, count: 10 * width)
        for b in 0..<10 {
            counts[b * width + Counter.offered.rawValue] = 100
            counts[b * width + Counter.served.rawValue] = 100
            counts[b * width + Counter.wasted.rawValue] = b >= 5 ? 60 : 0
        }
        let calm = [Int64](repeating: 0, count: 10)
        // Buckets 5..<10: 500 offered, 500 served, 300 of them wasted: goodput 200 < 250.
        #expect(Stuck.service(counts: counts, queueAtEnd: calm, queueLimit: 50, tail: 5..<10) == 1)
        // Buckets 0..<5: all useful.
        #expect(Stuck.service(counts: counts, queueAtEnd: calm, queueLimit: 50, tail: 0..<5) == 0)
        // A full queue at the end of every bucket of the tail, however much it serves; one bucket below it is not.
        #expect(Stuck.service(counts: counts, queueAtEnd: [Int64](repeating: 50, count: 10), queueLimit: 50, tail: 0..<5) == 1)
        #expect(Stuck.service(counts: counts, queueAtEnd: [50, 50, 49, 50, 50, 0, 0, 0, 0, 0], queueLimit: 50, tail: 0..<5) == 0)
        #expect(Stuck.service(counts: counts, queueAtEnd: calm, queueLimit: 50, tail: nil).isNaN)
    }

    /// The congestion collapse of ``RecoveryTests/collapseWithoutFailures()``: 500 clients at
    /// 0.1/s (50/s), 100 workers, each request 1 s plus 1 ms per request in the system, no timeout,
    /// no retries: with n in the system it serves min(n, 100)/(1 + n/1000) a second, which falls
    /// below 50/s past n* = 1,000. The fluid model dn/dt = 50 − min(n, 100)/(1 + n/1000), integrated
    /// in 1 ms steps: a 30 s outage at 50 s leaves n = 1,553 at 80 s, 3,519 at 180 s and 4,102 at
    /// 200 s, so over the tail (180–200 s) it serves 22.1 down to 19.6 a second, under half of the
    /// 50/s that start (about 80 operations short of half): stuck. After a 5 s outage (n = 303 at
    /// 55 s) it drains back to n = 53 by 80 s and serves what starts: not stuck.
    @Test("congestion collapse is stuck at the horizon; a short outage that drains is not; a trigger into the tail is not judged")
    func collapse() {
        func run(outageAt start: Int64 = 50, seconds: Int64) -> Summary {
            let r = Simulator.run(RecoveryTests.collapse(outageAt: start, seconds: seconds), replication: 0, checkInvariants: true)
            #expect(r.invariantViolation == nil)
            return r.summary
        }
        #expect(run(seconds: 30).stuck == 1)
        #expect(run(seconds: 5).stuck == 0)
        // The outage ends at 185 s, inside the last 20 s: not judged.
        #expect(run(outageAt: 150, seconds: 35).stuck.isNaN)
    }

    /// ``RecoveryTests/downstreamSaturation()``'s graph: the collapsing database behind a front
    /// service that calls it once per request with no timeout. db is stuck (its goodput under half
    /// of what it is sent), the front is not (it serves all it is sent at once), and so the run is.
    @Test("a call graph with a stuck database is stuck, service by service")
    func downstream() {
        let r = Simulator.run(RecoveryTests.collapsingGraph(), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let services = Dictionary(uniqueKeysWithValues: r.services.map { ($0.name, $0.stuck) })
        #expect(services["db"] == 1)
        #expect(services["front"] == 0)
        #expect(r.summary.stuck == 1)
    }
}
