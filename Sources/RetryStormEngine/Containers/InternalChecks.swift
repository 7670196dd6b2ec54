// Internal consistency checks of the engine's containers, after swift-collections'
// `COLLECTIONS_INTERNAL_CHECKS`: compiled in only when the build defines RETRYSTORM_INTERNAL_CHECKS
// (`make check-debug` builds with `-Xswiftc -DRETRYSTORM_INTERNAL_CHECKS`). Without it every
// check below is an empty inline function, so the release hot path carries none of them.
//
// Each container has `_checkInvariants()`, called after every mutation: O(1), or O(log n) along
// what a heap operation moved, or amortised O(1) where a timing-wheel bucket is drained. Where the
// whole structure can only be checked in O(n), `_checkAllInvariants()` does it; the simulation
// calls it at the end of every run, and the container tests call it as they go.

/// Whether this build checks the containers' invariants (RETRYSTORM_INTERNAL_CHECKS).
#if RETRYSTORM_INTERNAL_CHECKS
    package let internalChecksEnabled = true
#else
    package let internalChecksEnabled = false
#endif

/// Traps when `condition` is false, in builds with RETRYSTORM_INTERNAL_CHECKS; nothing otherwise.
/// For what callers of an unchecked operation must guarantee, and for container invariants.
@inline(__always)
func _internalInvariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(),
    file: StaticString = #fileID, line: UInt = #line
) {
    #if RETRYSTORM_INTERNAL_CHECKS
        precondition(condition(), message(), file: file, line: line)
    #endif
}
