import GSLSupport

/// The independent random streams of one replication. Each has its own GSL generator seeded from
/// (scenario seed, replication, stream), so a variant that draws more jitter values does not shift
/// the arrivals or service times another variant sees: common random numbers across variants.
enum StreamID: UInt64 {
    case arrivals = 1
    case service = 2
    case policy = 3
    case network = 4
    case errors = 5
}

extension RandomStream {
    init(scenario seed: UInt64, replication: Int, stream: StreamID) {
        self.init(seed: SeedDerivation.seed(scenario: seed, replication: replication, stream: stream.rawValue))
    }
}
