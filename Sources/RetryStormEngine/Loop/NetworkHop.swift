import GSLSupport
import RetryPolicy

/// The network between the clients and the server: the one-way delay of every hop (nil: no
/// network model, a request reaches the server and an answer its client at once), drawn from the
/// network's own random stream.
struct NetworkHop: ~Copyable {
    let delay: Scenario.Delay?
    let random: RandomStream

    /// When a request or an answer sent at `now` arrives, nanoseconds (one draw); nil without a
    /// network model.
    @inline(__always) func arrival(sentAt now: Int64) -> Int64? {
        guard let delay else { return nil }
        return Time.adding(now, delay.sample(random))
    }
}

extension NetworkHop {
    /// The same delay as `other`, drawn from the copy of its stream (in an extension, so the
    /// memberwise initialiser stays).
    init(copying other: borrowing NetworkHop, _ streams: inout StreamCopies) {
        delay = other.delay
        random = streams.copy(other.random)
    }
}
