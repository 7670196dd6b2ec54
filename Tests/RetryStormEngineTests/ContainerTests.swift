import RetryStormEngine
import TestSupport
import Testing

/// The engine's containers against simple reference models.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct ContainerTests {
    /// A deterministic pseudo-random sequence (64-bit LCG, Knuth's MMIX constants).
    struct LCG {
        var x: UInt64
        mutating func next() -> UInt64 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return x >> 11
        }
    }

    @Test(
        "timing wheel pops in (time, sequence) order, like a sorted list, across buckets, early inserts and overflow",
        arguments: [(4, 64), (10, 1024), (20, 64)])
    func timingWheelOrder(shift: Int, buckets: Int) {
        var wheel = TimingWheel(shift: shift, bucketCount: buckets, capacity: 16)
        var agenda = Agenda(capacity: 4)  // only for making events with sequence numbers
        var rng = LCG(x: UInt64(shift * 31 + buckets))
        var reference: [Event] = []
        var popped: [Event] = []
        var now: Int64 = 0
        // Interleave pushes (some before the drained range, some far beyond the window) and pops.
        for round in 0..<8_000 {
            let r = rng.next()
            if r % 3 != 0 || reference.isEmpty {
                let delay: Int64 =
                    switch r % 7 {
                    case 0: 0
                    case 1: Int64(rng.next() % 16)
                    case 2: Int64(rng.next() % (1 << 30))  // beyond small windows: overflow
                    default: Int64(rng.next() % 5_000)
                    }
                let e = agenda.make(time: now + delay, kind: .send, slot: UInt32(round), generation: 0)
                wheel.push(e)
                reference.append(e)
            } else {
                let e = wheel.peek()!
                wheel.removeMinUnchecked()
                // The whole structure, in builds with RETRYSTORM_INTERNAL_CHECKS (else nothing).
                if round % 97 == 0 { wheel._checkAllInvariants() }
                popped.append(e)
                now = e.time
                let i = reference.indices.min { reference[$0] < reference[$1] }!
                #expect(reference[i].order == e.order, "round \(round)")
                reference.remove(at: i)
            }
        }
        while let e = wheel.peek() {
            wheel.removeMinUnchecked()
            popped.append(e)
        }
        #expect(wheel.count == 0)
        #expect(zip(popped, popped.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("chunked queue is first-in first-out across chunk boundaries and reuses its chunks")
    func chunkedQueue() {
        var q = ChunkedQueue<UInt64>()
        var expectedFront: UInt64 = 0
        var next: UInt64 = 0
        var rng = LCG(x: 5)
        for _ in 0..<400_000 {
            if rng.next() % 3 != 0 {
                q.pushBack(next)
                next += 1
            } else if q.count > 0 {
                #expect(q.popFrontUnchecked() == expectedFront)
                expectedFront += 1
            }
        }
        #expect(q.count == Int(next - expectedFront))
        while q.count > 0 {
            let v = q.popFrontUnchecked()
            if v != expectedFront {
                Issue.record("expected \(expectedFront), got \(v)")
                break
            }
            expectedFront += 1
        }
        #expect(q.allocatedBytes <= 3 * (1 << 16) * 8)
    }

    /// The LIFO queue server pops from the back: a backlog that grows past several chunks, shrinks
    /// from both ends and grows again must keep every element in order.
    @Test("chunked queue popped from both ends matches an array, across chunk boundaries")
    func chunkedQueueBothEnds() {
        var q = ChunkedQueue<UInt64>()
        var reference: [UInt64] = []
        var front = 0
        var rng = LCG(x: 17)
        var next: UInt64 = 0
        for round in 0..<600_000 {
            let r = rng.next() % 8
            // Grow for the first third, then shrink from both ends, then grow again.
            let growing = round < 200_000 || round >= 400_000
            if (growing && r < 7) || reference.count == front {
                q.pushBack(next)
                reference.append(next)
                next += 1
            } else if r % 2 == 0 {
                let v = q.popFrontUnchecked()
                if v != reference[front] {
                    Issue.record("round \(round): front \(v), expected \(reference[front])")
                    return
                }
                front += 1
            } else {
                let v = q.popBackUnchecked()
                if v != reference.removeLast() {
                    Issue.record("round \(round): back \(v)")
                    return
                }
            }
            if front > 100_000 {
                reference.removeFirst(front)
                front = 0
            }
            if q.count != reference.count - front {
                Issue.record("round \(round): count \(q.count)")
                return
            }
        }
        #expect(q.count == reference.count - front && q.count > 1 << 16)
    }
}
