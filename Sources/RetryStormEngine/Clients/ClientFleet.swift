import GSLSupport
import RetryPolicy

/// The simulated clients as a whole: who they are (populations, hosts, which of them an offline
/// window or a restart touches), the state each keeps across operations (a ``HostGuard`` per client
/// and host: budget, breaker, throttle, slots in use) and the operations waiting for a
/// concurrency slot. What a client does with an operation is its policy's (``Simulation``); this
/// is what the clients hold.
struct ClientFleet: ~Copyable {
    let clients: Int
    /// Hosts per client (≥ 1): each client keeps one guard per host.
    let hosts: Int
    /// Whether each client and host has its own guard (some policy keeps host state); else the whole
    /// fleet shares one, which no policy writes.
    let perClientGuards: Bool
    /// Whether the scenario declares populations: then per-population settings come from
    /// ``populations``.
    let hasPopulations: Bool
    /// Per population: its client range and the client settings that may differ (empty without
    /// populations).
    let populations: [PopulationParameters]
    /// The fleet's settings without populations (population 0's with them), nanoseconds.
    let timeout: Int64
    /// The operations' end-to-end deadline, from their start (`Int64.max`: none).
    let deadline: Int64
    let connectTimeout: Int64
    let backgroundFraction: Double
    /// The first concurrency limit among the policies (nil: none waits for a slot).
    let limit: ConcurrencyLimit?
    var guards: RawBuffer<HostGuard>
    /// Per guard and lane: the first and last slot waiting for a concurrency slot.
    private var waitHead: RawBuffer<UInt32>
    private var waitTail: RawBuffer<UInt32>
    /// Per guard: woken waiters whose send is on the agenda.
    private var pendingWakes: RawBuffer<Int32>
    let seed: UInt64
    /// Which clients an offline window or a restart touches: a fixed hash of the client index
    /// below the fraction's share of 2^64, so no random draw is spent on it.
    private let offlineThreshold: UInt64
    private let restartThreshold: UInt64

    /// - Parameter policies: the policy of each of `scenario.effectivePopulations`, in order.
    init<Policy: ClientPolicy>(_ scenario: Scenario, policies: [Policy]) {
        let declared = scenario.effectivePopulations
        hasPopulations = !scenario.populations.isEmpty
        var first = 0
        populations =
            hasPopulations
            ? scenario.populations.map { p in
                defer { first += p.clients.count }
                return PopulationParameters(firstClient: first, clients: p.clients)
            } : []
        clients = scenario.clients.count
        hosts = max(1, scenario.clients.hosts)
        timeout = scenario.clients.timeout ?? .max
        deadline = scenario.clients.deadline ?? .max
        connectTimeout = scenario.clients.connectTimeout
        backgroundFraction = scenario.clients.backgroundFraction
        limit = policies.lazy.compactMap(\.concurrency).first
        perClientGuards = policies.contains { $0.keepsHostState }
        let guardCount = perClientGuards ? clients * hosts : 1
        guards = RawBuffer(capacity: guardCount)
        if perClientGuards {
            for (population, policy) in zip(declared, policies) {
                for _ in 0..<(population.clients.count * hosts) { guards.append(policy.makeHostGuard()) }
            }
        } else {
            guards.append(policies[0].makeHostGuard())
        }
        let waitCount = limit != nil ? guardCount : 0
        waitHead = RawBuffer(capacity: 2 * waitCount)
        waitTail = RawBuffer(capacity: 2 * waitCount)
        pendingWakes = RawBuffer(capacity: waitCount)
        for _ in 0..<(2 * waitCount) {
            waitHead.append(.max)
            waitTail.append(.max)
        }
        for _ in 0..<waitCount { pendingWakes.append(0) }
        seed = scenario.seed
        offlineThreshold = Self.threshold(scenario.clients.offline?.fraction ?? 0)
        restartThreshold = Self.threshold(scenario.clients.restart?.fraction ?? 0)
    }

    /// A fleet in the same state as `other`: its guards and waiting lines copied (a snapshot's).
    init(copying other: borrowing ClientFleet) {
        clients = other.clients
        hosts = other.hosts
        perClientGuards = other.perClientGuards
        hasPopulations = other.hasPopulations
        populations = other.populations
        timeout = other.timeout
        deadline = other.deadline
        connectTimeout = other.connectTimeout
        backgroundFraction = other.backgroundFraction
        limit = other.limit
        guards = RawBuffer(copying: other.guards)
        waitHead = RawBuffer(copying: other.waitHead)
        waitTail = RawBuffer(copying: other.waitTail)
        pendingWakes = RawBuffer(copying: other.pendingWakes)
        seed = other.seed
        offlineThreshold = other.offlineThreshold
        restartThreshold = other.restartThreshold
    }

    static func threshold(_ fraction: Double) -> UInt64 {
        fraction >= 1 ? .max : UInt64(max(0, fraction) * 0x1.0p64)
    }

    /// Whether `client` is among the share picked by `threshold` (salted per purpose).
    @inline(__always) private func picked(_ client: UInt32, _ threshold: UInt64, salt: UInt64) -> Bool {
        threshold != 0 && SeedDerivation.mix(seed ^ salt ^ UInt64(client)) < threshold
    }

    /// Whether `client` is among those the offline window cuts off.
    @inline(__always) func goesOffline(_ client: UInt32) -> Bool { picked(client, offlineThreshold, salt: 0x0FF1_1E) }

    /// Whether `client` is among those the restart wave restarts.
    @inline(__always) func restarts(_ client: UInt32) -> Bool { picked(client, restartThreshold, salt: 0x7E57_A27) }

    /// The guard of `client` for `host`.
    @inline(__always) func guardIndex(_ client: UInt32, _ host: UInt16) -> Int {
        perClientGuards ? Int(client) &* hosts &+ Int(host) : 0
    }

    /// The population of `client`: the one whose range holds it (0 without populations).
    /// - Complexity: O(populations).
    @inline(__always) func population(of client: UInt32) -> UInt8 {
        guard hasPopulations else { return 0 }
        var k = populations.count - 1
        while k > 0 && Int(client) < populations[k].firstClient { k -= 1 }
        return UInt8(truncatingIfNeeded: k)
    }

    /// Clients of population `k` (the fleet's without populations).
    @inline(__always) func clients(inPopulation k: Int) -> Int { hasPopulations ? populations[k].clients : clients }

    /// The response timeout of population `k`'s clients, nanoseconds (`Int64.max`: none).
    @inline(__always) func timeout(_ k: UInt8) -> Int64 { hasPopulations ? populations[Int(k)].timeout : timeout }

    /// The end-to-end deadline of population `k`'s operations, nanoseconds from their start (`Int64.max`: none).
    @inline(__always) func deadline(_ k: UInt8) -> Int64 { hasPopulations ? populations[Int(k)].deadline : deadline }

    @inline(__always) func connectTimeout(_ k: UInt8) -> Int64 { hasPopulations ? populations[Int(k)].connectTimeout : connectTimeout }

    /// The share of population `k`'s operations that run in the background lane.
    @inline(__always) func backgroundFraction(_ k: UInt8) -> Double {
        hasPopulations ? populations[Int(k)].backgroundFraction : backgroundFraction
    }

    // MARK: - Concurrency slots

    /// Queues `slot` for a concurrency slot of guard `g` in `lane`.
    mutating func park(_ slot: UInt32, _ g: Int, _ lane: Lane, ops: borrowing OperationTable) {
        let b = ops.body(slot)
        b.pointee.flags.insert(.waitingForSlot)
        // Still linked from an earlier wait (then superseded): it keeps that place in the queue.
        guard !b.pointee.flags.contains(.inSlotQueue) else { return }
        b.pointee.flags.insert(.inSlotQueue)
        ops.setNextWaiting(slot, .max)
        let q = 2 * g + Int(lane.rawValue)
        if waitTail[q] == .max {
            waitHead[q] = slot
        } else {
            ops.setNextWaiting(waitTail[q], slot)
        }
        waitTail[q] = slot
    }

    /// An attempt of guard `g` ended: wakes as many of its waiters as `limit` leaves slots free,
    /// user-initiated first, each to send at `now`.
    @inline(__always) mutating func wake(
        _ g: Int, limit: ConcurrencyLimit, now: Int64, ops: borrowing OperationTable,
        agenda: inout Agenda
    ) {
        // The policy library's rule, as RetryHost applies it in an app: the same operations wake in the same order.
        pendingWakes[g] += limit.wakeWaiters(inFlight: guards.base[g].inFlight, pending: pendingWakes[g]) { lane in
            let q = 2 * g + Int(lane.rawValue)
            let slot = waitHead[q]
            guard slot != .max else { return nil }
            waitHead[q] = ops.nextWaiting(slot)
            if waitHead[q] == .max { waitTail[q] = .max }
            let b = ops.body(slot)
            b.pointee.flags.remove(.inSlotQueue)
            // A restart or a nudge may have moved it on already.
            guard b.pointee.flags.contains(.waitingForSlot), b.pointee.flags.contains(.live) else { return false }
            b.pointee.flags.remove(.waitingForSlot)
            b.pointee.flags.insert(.woken)
            agenda.schedule(time: now, kind: .send, slot: slot, generation: ops.header(slot).pointee.generation)
            return true
        }
    }

    /// A woken operation of guard `g` sent, or was moved on by a restart: no longer pending.
    @inline(__always) mutating func wokenLeft(_ g: Int) { pendingWakes[g] -= 1 }
}

/// A population's client range and the client settings that may differ between populations.
struct PopulationParameters {
    /// Its clients are `firstClient ..< firstClient + clients`.
    let firstClient: Int
    let clients: Int
    /// Nanoseconds (`Int64.max`: no timeout).
    let timeout: Int64
    /// Nanoseconds from an operation's start (`Int64.max`: no deadline).
    let deadline: Int64
    let connectTimeout: Int64
    let backgroundFraction: Double

    init(firstClient: Int, clients c: Scenario.Clients) {
        self.firstClient = firstClient
        clients = c.count
        timeout = c.timeout ?? .max
        deadline = c.deadline ?? .max
        connectTimeout = c.connectTimeout
        backgroundFraction = c.backgroundFraction
    }
}
