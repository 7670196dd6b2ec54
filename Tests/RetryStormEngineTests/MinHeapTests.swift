import RetryStormEngine
import TestSupport
import Testing

/// The engine's one heap against a sorted list, the reference order for every use.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct MinHeapTests {
    @Test(
        "pushes, pops and replacements of the least give the sorted order, duplicates included",
        arguments: [1, 2, 5, 17, 1000])
    func popsInOrder(n: Int) {
        var rng = ContainerTests.LCG(x: UInt64(n))
        var heap = MinHeap<Int64>(capacity: 4)
        var reference: [Int64] = []
        for _ in 0..<n {
            let v = Int64(rng.next() % 97)  // small range: many equal keys
            heap.push(v)
            reference.append(v)
        }
        // Replacing the least by a larger value is what a worker's next free time does.
        for _ in 0..<(n / 2) {
            let least = heap.peek()!
            let v = least + Int64(rng.next() % 50)
            heap.replaceMinUnchecked(v)
            reference.remove(at: reference.firstIndex(of: least)!)
            reference.append(v)
        }
        var popped: [Int64] = []
        while let v = heap.peek() {
            popped.append(v)
            heap.removeMinUnchecked()
        }
        #expect(popped == reference.sorted())
        #expect(heap.count == 0)
    }

    @Test(
        "sortDescending is the reverse of sorted order for empty, tiny, crowded and presorted arrays",
        arguments: [0, 1, 2, 3, 4, 5, 64, 65, 4096])
    func heapsort(n: Int) {
        var rng = ContainerTests.LCG(x: UInt64(n) &+ 7)
        for shape in 0..<3 {
            var values: [Int64] = (0..<n).map { _ in Int64(rng.next() % 1000) }
            if shape == 1 { values.sort() }
            if shape == 2 { values.sort(by: >) }
            var sorted = values
            sorted.withUnsafeMutableBufferPointer { MinHeap<Int64>.sortDescending($0) }
            #expect(sorted == values.sorted(by: >), "shape \(shape)")
        }
    }
}
