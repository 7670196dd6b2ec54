import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The memory budget the engine's speed depends on, checked where it is spent. A million
/// operations in flight do not fit in cache: every event's slot is a miss, and x86 fetches the
/// 128-byte-aligned pair of lines of a miss together, so a slot must stay one such pair (docs/performance.md,
/// "Memory first"). The policy library's types may grow and its tests pin no sizes:
/// what matters is whether the engine's slot still fits.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct OperationSlotLayoutTests {
    @Test("an operation slot (header, body with the policy's OperationRecord, queue link) is exactly 128 bytes")
    func slotIs128Bytes() {
        #expect(
            MemoryLayout<OperationSlot>.stride == 128,
            "OperationRecord is \(MemoryLayout<OperationRecord>.size) bytes; the slot has room for 88")
    }

    @Test("what the engine keeps in raw memory is trivial: slots, host guards, the policy (no references to release)")
    func plainValues() {
        #expect(_isPOD(OperationSlot.self))
        #expect(_isPOD(HostGuard.self))
        #expect(_isPOD(RetryPolicy.self))
    }
}
