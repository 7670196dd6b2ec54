/// The simulated time a handler acts at, as the engine's handlers receive it: the time, and where
/// that time's bucket starts among the recorder's counts. The event loop makes one per event from
/// the recorder's clock (``Recorder/moment(now:)``, no division); settling an attempt ahead hands
/// the same handlers a later one (``Recorder/moment(at:)``), so no clock moves forward and back.
struct Moment {
    /// Nanoseconds since the start of the run.
    let time: Int64
    /// Index in ``Recorder/counts`` of the first count of `time`'s bucket.
    let base: Int
}
