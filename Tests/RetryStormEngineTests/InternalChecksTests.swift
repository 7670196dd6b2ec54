import Foundation
import RetryStormEngine
import TestSupport
import Testing

/// The containers' internal checks: compiled in under RETRYSTORM_INTERNAL_CHECKS (`make
/// check-debug`), out of every other build. The exit tests run only where they are compiled in:
/// each misuses an unchecked operation the way a bug in the engine would, and the check must stop
/// the process (without it the operation reads or writes out of bounds and carries on).
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct InternalChecksTests {
    /// `make check-debug` sets RETRYSTORM_INTERNAL_CHECKS=1 in the test run's environment as well
    /// as defining it for the compiler, so a pass that lost the flag fails here instead of
    /// silently checking nothing; every other run must have the checks compiled out.
    @Test("the checks are compiled in exactly when the run asks for them")
    func compiledInWhenAsked() {
        #expect(internalChecksEnabled == (ProcessInfo.processInfo.environment["RETRYSTORM_INTERNAL_CHECKS"] == "1"))
    }

    @Test("popFrontUnchecked on an empty ring stops the process", .enabled(if: internalChecksEnabled))
    func emptyRing() async {
        await #expect(processExitsWith: .failure) {
            var ring = Ring<Int>(capacity: 16)
            _ = ring.popFrontUnchecked()
        }
    }

    @Test("peekFrontUnchecked and popBackUnchecked on an empty chunked queue stop the process", .enabled(if: internalChecksEnabled))
    func emptyChunkedQueue() async {
        await #expect(processExitsWith: .failure) {
            let queue = ChunkedQueue<Int64>()
            _ = queue.peekFrontUnchecked()
        }
        await #expect(processExitsWith: .failure) {
            var queue = ChunkedQueue<Int64>()
            queue.pushBack(1)
            _ = queue.popBackUnchecked()
            _ = queue.popBackUnchecked()
        }
    }

    @Test("removing from an empty heap, wheel or agenda source stops the process", .enabled(if: internalChecksEnabled))
    func emptyEventQueues() async {
        await #expect(processExitsWith: .failure) {
            var heap = EventHeap(capacity: 16)
            heap.removeMinUnchecked()
        }
        await #expect(processExitsWith: .failure) {
            var wheel = TimingWheel(shift: 10, bucketCount: 64, capacity: 16)
            wheel.removeMinUnchecked()
        }
        await #expect(processExitsWith: .failure) {
            var agenda = Agenda(capacity: 16)
            agenda.removeEarliestUnchecked(from: .fifo)
        }
    }
}
