/// gRPC's status codes (`google/rpc/code.proto`) and what each one is among the failures the
/// simulator produces.
///
/// The simulated server and network fail in HTTP terms: 503 (a full queue sheds, unprocessed; or
/// `server.errors.server` with `server.errors.status: 503`, processed), 429 (the rate
/// limiter), 500 (`server.errors.server`, the flaky server), 400 (`server.errors.permanent`), 401
/// (expired credentials), 409 (the contention model's lost race), a per-attempt timeout
/// (`clients.timeout`) and transport failures (an offline client). A code stands for the HTTP
/// statuses that `code.proto` gives it as its "HTTP Mapping" (UNAVAILABLE ↔ 503,
/// RESOURCE_EXHAUSTED ↔ 429, INTERNAL, UNKNOWN and DATA_LOSS ↔ 500 …), plus:
/// - UNAVAILABLE also for 502 (gRPC's `http-grpc-status-mapping.md`; `code.proto` names no code
///   for 502) and for transport failures (gRPC reports a connection that fails as UNAVAILABLE);
/// - DEADLINE_EXCEEDED also for the per-attempt timeout (the status a gRPC call ends with when its
///   deadline passes).
///
/// A status several codes share (500, 409, 400) is one failure in the simulator: it is retried
/// when any of its codes is, and the importer says so when the file lists only some of them.
/// Both 503s are UNAVAILABLE (gRPC answers UNAVAILABLE whether or not the server did the work), so
/// a policy that retries UNAVAILABLE retries a processed 503 as well as a shed one.
struct GRPCStatusCode: Sendable, Hashable {
    let name: String
    let number: Int
    /// The HTTP statuses `code.proto` maps it to (and 502 for UNAVAILABLE).
    let statuses: [Int]

    static let all: [GRPCStatusCode] = [
        GRPCStatusCode(name: "OK", number: 0, statuses: [200]),
        GRPCStatusCode(name: "CANCELLED", number: 1, statuses: [499]),
        GRPCStatusCode(name: "UNKNOWN", number: 2, statuses: [500]),
        GRPCStatusCode(name: "INVALID_ARGUMENT", number: 3, statuses: [400]),
        GRPCStatusCode(name: "DEADLINE_EXCEEDED", number: 4, statuses: [504]),
        GRPCStatusCode(name: "NOT_FOUND", number: 5, statuses: [404]),
        GRPCStatusCode(name: "ALREADY_EXISTS", number: 6, statuses: [409]),
        GRPCStatusCode(name: "PERMISSION_DENIED", number: 7, statuses: [403]),
        GRPCStatusCode(name: "RESOURCE_EXHAUSTED", number: 8, statuses: [429]),
        GRPCStatusCode(name: "FAILED_PRECONDITION", number: 9, statuses: [400]),
        GRPCStatusCode(name: "ABORTED", number: 10, statuses: [409]),
        GRPCStatusCode(name: "OUT_OF_RANGE", number: 11, statuses: [400]),
        GRPCStatusCode(name: "UNIMPLEMENTED", number: 12, statuses: [501]),
        GRPCStatusCode(name: "INTERNAL", number: 13, statuses: [500]),
        GRPCStatusCode(name: "UNAVAILABLE", number: 14, statuses: [502, 503]),
        GRPCStatusCode(name: "DATA_LOSS", number: 15, statuses: [500]),
        GRPCStatusCode(name: "UNAUTHENTICATED", number: 16, statuses: [401])
    ]

    static let unavailable = all[14]
    static let deadlineExceeded = all[4]

    /// The code named exactly `name` (upper snake case, as `code.proto` spells it).
    static func code(named name: String) -> GRPCStatusCode? { all.first { $0.name == name } }

    /// The code numbered `number` (0…16).
    static func code(numbered number: Int) -> GRPCStatusCode? { all.first { $0.number == number } }

    /// What a service config may write for a code, as grpc-go's parser reads one (`codes.Code`'s
    /// `UnmarshalJSON`): a JSON number of plain digits, 0…16, or a JSON string holding a code's
    /// name exactly (`"UNAVAILABLE"`). grpc-go refuses `"unavailable"`, `"14"`, `14.0` and `17`, so
    /// that the service would refuse the config: the importer refuses them too, stating this.
    static let rule = "grpc-go takes a code's name in upper case as text (\"UNAVAILABLE\") or its number 0…16 unquoted (14)"

    /// The codes whose statuses include `status`.
    static func codes(for status: Int) -> [GRPCStatusCode] { all.filter { $0.statuses.contains(status) } }

    /// The simulator's classification that retries exactly `codes`: the statuses they stand for
    /// (429 as a throttling status, 409 as the conflict switch), transport failures for
    /// UNAVAILABLE, timeouts for DEADLINE_EXCEEDED.
    static func classification(retrying codes: Set<GRPCStatusCode>) -> Classification {
        var statuses = Set(codes.flatMap(\.statuses))
        statuses.remove(200)
        let conflict = statuses.remove(409) != nil
        let throttling = statuses.remove(429) != nil
        return Classification(
            retryable: statuses.sorted(), throttling: throttling ? [429] : [], conflict: conflict,
            timeouts: codes.contains(deadlineExceeded), transport: codes.contains(unavailable))
    }

    /// What the simulator retries, in the terms of its `policy.classify.*` keys.
    struct Classification: Equatable {
        var retryable: [Int]
        var throttling: [Int]
        var conflict: Bool
        var timeouts: Bool
        var transport: Bool
    }
}
