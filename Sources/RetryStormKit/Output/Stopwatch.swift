import Foundation

/// A monotonic stopwatch.
package struct Stopwatch: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds
    package init() {}
    package var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
