/// The event loop's agenda and recorder as a call graph's handlers reach them: the loop lends
/// them to each call into the graph (``GraphServer/receive(_:now:agenda:recorder:sink:)``,
/// ``GraphServer/handleNext(now:agenda:recorder:sink:)``, ``GraphServer/rejected(now:agenda:)``),
/// which points these at them for the length of that call (``GraphServer/reach(_:_:_:)``), so that
/// no handler below has to pass them down. Between calls they point nowhere, and nothing reads them.
struct LoopReach {
    /// The loop's agenda: every event's sequence number comes from it.
    var agenda: UnsafeMutablePointer<Agenda>
    /// The loop's recorder: the first service's (see ``GraphServer``).
    var recorder: UnsafeMutablePointer<Recorder>

    init(agenda: UnsafeMutablePointer<Agenda>, recorder: UnsafeMutablePointer<Recorder>) {
        self.agenda = agenda
        self.recorder = recorder
    }

    /// Pointing nowhere: set before any handler runs.
    init() {
        agenda = UnsafeMutablePointer(bitPattern: MemoryLayout<Agenda>.alignment)!
        recorder = UnsafeMutablePointer(bitPattern: MemoryLayout<Recorder>.alignment)!
    }
}
