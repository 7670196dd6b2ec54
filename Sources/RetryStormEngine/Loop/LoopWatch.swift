/// What may stop the event loop between two events, for a caller that needs the state at a
/// moment the loop cannot know in advance: a splitting run stops where the server's backlog first
/// reaches a level, to copy the state there (``Splitting``). The loop is specialised for each
/// watch; an ordinary run's (``Unwatched``) compiles to nothing.
protocol LoopWatch: ~Copyable {
    /// Whether the loop asks ``stop(at:backlog:)`` at all.
    static var watches: Bool { get }
    /// After the event at `time` (nanoseconds), with `backlog` requests waiting or in service at
    /// the server: whether the loop stops here.
    mutating func stop(at time: Int64, backlog: Int) -> Bool
}

/// An ordinary run's watch: never asked.
struct Unwatched: LoopWatch {
    @inline(__always) static var watches: Bool { false }
    @inline(__always) func stop(at time: Int64, backlog: Int) -> Bool { false }
}
