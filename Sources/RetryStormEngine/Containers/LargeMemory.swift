#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Memory for the engine's big tables, backed by 2 MiB pages where the system offers them.
///
/// A million operations touch their slots, wheel blocks and per-client state at random across
/// hundreds of megabytes. With 4 KiB pages nearly every such access also misses the TLB and walks
/// the page table (itself often out of cache); with 2 MiB pages the TLB covers the whole working
/// set. Linux gives anonymous memory huge pages when it is 2 MiB-aligned and advised with
/// `MADV_HUGEPAGE` (the default `transparent_hugepage=madvise` setting); elsewhere, or below 2 MiB,
/// this is an ordinary aligned allocation. Everything allocated here is freed with ``free(_:)``.
enum LargeMemory {
    static let hugePage = 2 << 20

    /// Uninitialised memory of `byteCount` bytes aligned to `alignment` (a power of two).
    static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let huge = byteCount >= hugePage
        let align = max(huge ? hugePage : 16, alignment, MemoryLayout<Int>.size)
        var p: UnsafeMutableRawPointer?
        guard posix_memalign(&p, align, max(byteCount, 1)) == 0, let memory = p else {
            fatalError("out of memory allocating \(byteCount) bytes")
        }
        #if os(Linux)
            // A hint: without transparent huge pages it fails harmlessly.
            if huge { _ = madvise(memory, byteCount, MADV_HUGEPAGE) }
        #endif
        return memory
    }

    static func free(_ memory: UnsafeMutableRawPointer) {
        #if canImport(Glibc)
            Glibc.free(memory)
        #else
            Darwin.free(memory)
        #endif
    }
}
