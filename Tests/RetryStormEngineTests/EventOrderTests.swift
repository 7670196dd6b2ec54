import RetryStormEngine
import TestSupport
import Testing

/// The event list's order: (time, sequence), ties first-in first-out across the heap and the FIFO.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct EventOrderTests {
    /// Pops everything, returning the slots in pop order.
    func drain(_ agenda: inout Agenda) -> [UInt32] {
        var out: [UInt32] = []
        while let (e, source) = agenda.earliest(or: nil) {
            out.append(e.slot)
            agenda.removeEarliestUnchecked(from: source)
        }
        return out
    }

    @Test("events pop by time; equal times pop in the order they were scheduled, heap and FIFO mixed")
    func tiesAreFIFO() {
        var a = Agenda(capacity: 4)
        a.schedule(time: 20, kind: .send, slot: 1, generation: 0)
        a.scheduleInOrder(time: 10, kind: .timeout, slot: 2, generation: 0)
        a.schedule(time: 10, kind: .send, slot: 3, generation: 0)
        a.scheduleInOrder(time: 20, kind: .timeout, slot: 4, generation: 0)
        a.schedule(time: 5, kind: .arrival, slot: 5, generation: 0)
        a.schedule(time: 10, kind: .send, slot: 6, generation: 0)
        #expect(drain(&a) == [5, 2, 3, 6, 1, 4])
    }

    @Test("10,000 pseudo-random times pop sorted, ties in scheduling order")
    func heapOrder() {
        var a = Agenda(capacity: 16)
        var x: UInt64 = 1
        var expected: [(Int64, UInt32)] = []
        for i in 0..<10_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let t = Int64(x >> 54)  // 0…1023: many ties
            a.schedule(time: t, kind: .send, slot: UInt32(i), generation: 0)
            expected.append((t, UInt32(i)))
        }
        let order = expected.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        #expect(drain(&a) == order)
    }

    @Test("an out-of-order FIFO event still pops in time order (it goes to the heap)")
    func fifoFallback() {
        var a = Agenda(capacity: 4)
        a.scheduleInOrder(time: 50, kind: .timeout, slot: 1, generation: 0)
        a.scheduleInOrder(time: 40, kind: .timeout, slot: 2, generation: 0)
        #expect(drain(&a) == [2, 1])
    }
}
