import RetryPolicy
import RetryStormEngine

/// A scenario being assembled from defaults, the file and `--set`, before cross-field checks.
/// Composite values (the arrival pattern, the outage) are kept as their parts here and put
/// together in ``build(locations:)``; the policy's parts live in ``PolicyDraft``.
struct ScenarioDraft: Sendable {
    var name = ""
    var description = ""
    var seed: UInt64 = 1
    var horizon: Nanoseconds = 0
    var bucket: Nanoseconds = 0

    var clientsCount = 0
    var arrival = "poisson"
    var start: Nanoseconds = 0
    var spread: Nanoseconds = 0
    var ratePerClient = 0.0
    var until: Nanoseconds?
    var timeout: Nanoseconds?

    var model = "queue"
    var capacity = 0.0
    var workers = 1
    var service = "exponential"
    var queueLimit: Int?
    var dropExpired = false

    var outageAt: Nanoseconds = 0
    var outageDuration: Nanoseconds = 0
    var outageFraction = 0.0
    var outageRecovery = "linear"
    var outageRamp: Nanoseconds = 0

    var policy = PolicyDraft()
}
