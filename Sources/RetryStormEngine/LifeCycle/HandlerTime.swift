/// The time an ``AttemptHost``'s handlers act at.
protocol HandlerTime {
    /// Nanoseconds since the start of the run.
    var time: Int64 { get }
}

extension Moment: HandlerTime {}

extension Int64: HandlerTime {
    /// Itself: a call graph's handlers act at nanoseconds.
    @inline(__always) var time: Int64 { self }
}
