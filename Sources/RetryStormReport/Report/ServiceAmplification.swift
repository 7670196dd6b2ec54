import GSLSupport
import RetryStormEngine
import RetryStormResults

/// Where a call graph's requests land, per point and service: the requests the service received
/// per user operation (services.csv's `requests_per_operation`) and its growth, the requests it
/// received per call its callers made to it (services.csv's `requests` over `calls`: the calls
/// actually made, so a caller's request refused at its own door, which calls nothing, counts for
/// nothing; at the first service the calls are the user operations, and its growth is the
/// clients' own retries). A growth of 1 is a layer that adds nothing; 3 is one whose retries
/// triple the load below it. Both replication by replication, then a mean and 95% interval over
/// replications.
struct ServiceAmplification {
    /// One service of one point.
    struct Row {
        var point: String
        var service: String
        /// Who calls the service, each with its calls per request; empty for the first service
        /// (the clients call it once per user operation).
        var callers: [(name: String, count: Int)]
        /// Replication indices, and per replication `requests_per_operation` and the growth (NaN
        /// where no call was made to it).
        var replications: [Int]
        var perOperation: [Double]
        var growth: [Double]

        var perOperationInterval: ConfidenceInterval { Statistics.confidenceInterval95(perOperation.filter { !$0.isNaN }) }
        var growthInterval: ConfidenceInterval { Statistics.confidenceInterval95(growth.filter { !$0.isNaN }) }
    }

    /// Per point in `points`' order, its services in services.csv's order (the scenario's).
    let rows: [Row]

    /// - Parameters:
    ///   - records: services.csv's rows.
    ///   - points: the points to describe, in the order wanted.
    ///   - scenario: the scenario a point ran, whose `services` say who calls whom.
    init(_ records: [ServiceRecord], points: [String], scenario: (String) -> Scenario) {
        var rows: [Row] = []
        for point in points {
            let own = records.filter { $0.variant == point }
            var names: [String] = []
            for r in own where !names.contains(r.service) { names.append(r.service) }
            let services = scenario(point).services
            let replications = Array(Set(own.map(\.replication))).sorted()
            // perOperation[service][replication index]
            var perOperation: [String: [Double]] = [:]
            for name in names {
                perOperation[name] = replications.map { r in
                    own.first { $0.service == name && $0.replication == r }?.value(.requestsPerOperation) ?? .nan
                }
            }
            for (i, name) in names.enumerated() {
                let callers = Self.callers(of: name, in: services)
                let growth = replications.map { r -> Double in
                    guard let row = own.first(where: { $0.service == name && $0.replication == r }),
                        let requests = row.value(.requests), let calls = row.value(.calls), calls > 0
                    else { return .nan }
                    return requests / calls
                }
                rows.append(
                    Row(
                        point: point, service: name, callers: i == 0 ? [] : callers, replications: replications,
                        perOperation: perOperation[name]!, growth: growth))
            }
        }
        self.rows = rows
    }

    /// The services that call `service`, in the scenario's order, with their calls per request
    /// (the counts of every `calls` entry to it added up).
    static func callers(of service: String, in services: [Scenario.Service]) -> [(name: String, count: Int)] {
        guard let target = services.firstIndex(where: { $0.name == service }) else { return [] }
        return services.compactMap { s in
            let count = s.calls.filter { $0.to == target }.reduce(0) { $0 + $1.count }
            return count > 0 ? (s.name, count) : nil
        }
    }

    /// The rows of `point`.
    func rows(_ point: String) -> [Row] { rows.filter { $0.point == point } }
}
