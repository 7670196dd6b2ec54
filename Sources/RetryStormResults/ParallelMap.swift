import Dispatch
import Synchronization

/// Maps indices to values on a fixed number of threads, results in index order, so the output
/// never depends on the number of threads or on which finishes first.
package enum ParallelMap {
    /// `body(i)` for every `i` in `0..<count`, on at most `threads` threads (at least one), each
    /// taking the next index as it becomes free.
    package static func map<T: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
        let slots = Mutex<[T?]>(Array(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= count { break }
                let value = body(i)
                slots.withLock { $0[i] = value }
            }
        }
        return slots.withLock { $0.map { $0! } }
    }
}
