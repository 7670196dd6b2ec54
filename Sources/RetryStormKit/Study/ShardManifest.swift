import Foundation

/// `shard.json`: what a shard directory holds, so that `merge` can check the shards belong
/// together and put their rows back in task order.
public struct ShardManifest: Codable, Sendable, Equatable {
    public struct PointInfo: Codable, Sendable, Equatable {
        public var name: String
        public var parameters: [String]
    }

    public var version: String
    public var kind: Study.Kind
    public var shard: Shard
    public var replications: Int
    public var parameterPaths: [String]
    public var points: [PointInfo]
    /// The scenario file's text, which every shard must share.
    public var scenario: String
    public var overrides: [String]

    public init(study: Study, shard: Shard, scenario: String, overrides: [String]) {
        version = RetryStormVersion.current
        kind = study.kind
        self.shard = shard
        replications = study.replications
        parameterPaths = study.parameterPaths
        points = study.points.map { PointInfo(name: $0.name, parameters: $0.parameters) }
        self.scenario = scenario
        self.overrides = overrides
    }

    /// Whether two shards come from the same study (everything but the shard index matches).
    func sameStudy(as other: ShardManifest) -> Bool {
        version == other.version && kind == other.kind && shard.count == other.shard.count
            && replications == other.replications && parameterPaths == other.parameterPaths
            && points == other.points && scenario == other.scenario && overrides == other.overrides
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain values cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}
