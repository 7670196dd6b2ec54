import RetryPolicy
import RetryStormEngine

/// A scenario being assembled from defaults, the file and `--set`, before cross-field checks.
/// Composite values (the arrival pattern, the capacity triggers, the network delay) are kept as
/// their parts here and put together in ``build(locations:)``; the policy's parts live in
/// ``PolicyDraft``.
struct ScenarioDraft: Sendable {
    /// What the keys of this draft's server are under: `""`, or `services.NAME.` for a service's
    /// server, so that the input files it reads are recorded under the key that named them.
    var scope = ""
    var name = ""
    var description = ""
    /// `focus`: a service's name, or empty for the default (``Scenario/focus``).
    var focus = ""
    var seed: UInt64 = 1
    var horizon: Nanoseconds = 0
    var bucket: Nanoseconds = 0
    var warmup: Nanoseconds = 0
    var recoveryWindow: Nanoseconds = 0
    var stuckWindow: Nanoseconds = 0

    var clientsCount = 0
    var arrival = "poisson"
    var start: Nanoseconds = 0
    var spread: Nanoseconds = 0
    var ratePerClient = 0.0
    var until: Nanoseconds?
    var think: Nanoseconds = 0
    var timeout: Nanoseconds?
    var connectTimeout: Nanoseconds = 0
    var background = 0.0
    var hosts = 1
    var offlineAt: Nanoseconds = 0
    var offlineDuration: Nanoseconds = 0
    var offlineFraction = 0.0
    var offlineNudge = true
    var restartAt: Nanoseconds?
    var restartFraction = 0.0
    var credentialLifetime: Nanoseconds?
    var deadline: Nanoseconds?

    /// nil: no network hop (`none`).
    var latencyShape: Scenario.Delay.Shape?
    var latencyMean: Nanoseconds = 0
    var latencySpread = 0.0

    var model = "queue"
    var capacity = 0.0
    var workers = 1
    var service = "exponential"
    var serviceSigma = 1.0
    var serviceShape = 2.5
    var queueLimit: Int?
    var dropExpired = false
    var discipline = "fifo"
    var shedRetryAfter: Nanoseconds?
    var congestion: Nanoseconds = 0
    var rejectCost = 0.0
    var errorsPermanent = 0.0
    var errorsServer = 0.0
    var errorsAmbiguous = 0.0
    /// `server.errors.at` and `.duration`: the error window (nil: the whole run; a window open to the end).
    var errorsAt: Nanoseconds?
    var errorsDuration: Nanoseconds?
    /// `server.errors.status`: the transient share's status, 500 or 503.
    var errorsStatus = "500"
    var rateLimit: Double?
    var rateBurst = 1.0
    var rateRetryAfter: Nanoseconds?
    var hopMean: Nanoseconds = 0
    var hopSpread: Nanoseconds = 0
    var flakyFailure = 0.0
    var flakyLatency: Nanoseconds = 0

    var outageAt: Nanoseconds = 0
    var outageDuration: Nanoseconds = 0
    var outageFraction = 0.0
    var outageRecovery = "linear"
    var outageRamp: Nanoseconds = 0
    var brownoutAt: Nanoseconds = 0
    var brownoutDuration: Nanoseconds = 0
    var brownoutFraction = 0.0
    var dipsEvery: Nanoseconds?
    var dipsDuration: Nanoseconds = 0
    var dipsFraction = 0.0
    var dipsFrom: Nanoseconds = 0

    var loadProfile: [LoadProfile.Point] = []
    var spikeAt: Nanoseconds = 0
    var spikeDuration: Nanoseconds = 0
    var spikeMultiplier = 1.0
    var loadCSV: String?
    var capacityCSV: String?

    var policy = PolicyDraft()
}
