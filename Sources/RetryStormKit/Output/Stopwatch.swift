import Foundation

/// A monotonic stopwatch.
public struct Stopwatch: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds
    public init() {}
    public var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
