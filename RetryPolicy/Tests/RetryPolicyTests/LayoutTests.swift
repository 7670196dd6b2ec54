import RetryPolicy
import Testing

/// The simulator keeps one `HostGuard` per client and one `OperationRecord` per operation —
/// millions — in raw buffers without reference counting, and the policy behind a pointer: all
/// three must be plain, fixed-size values.
struct LayoutTests {
    @Test("RetryPolicy, HostGuard and OperationRecord are trivially copyable (no references, no arrays, no existentials)")
    func plainValues() {
        #expect(_isPOD(RetryPolicy.self))
        #expect(_isPOD(HostGuard.self))
        #expect(_isPOD(OperationRecord.self))
        #expect(_isPOD(SlidingWindow.self))
    }

    @Test("sizes: an operation record 88 bytes, a host guard 208 (budget 64, breaker 80, throttle 48, counts 12)")
    func sizes() {
        #expect(MemoryLayout<OperationRecord>.stride == 88)
        #expect(MemoryLayout<SlidingWindow>.size == 48)
        #expect(MemoryLayout<RetryBudgetState>.stride == 64)
        #expect(MemoryLayout<CircuitBreakerState>.stride == 80)
        #expect(MemoryLayout<HostGuard>.stride == 208)
    }
}
