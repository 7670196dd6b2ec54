/// A set of HTTP status codes 0…639 stored inline as bits: no allocation, no reference counting,
/// so classification costs a shift and a mask on the simulator's hot path.
public struct StatusSet: Sendable, Hashable, Codable, ExpressibleByArrayLiteral {
    // Visible to inlined code: `contains` runs for every failed attempt an app or the simulator
    // classifies, and a call that copies the 80-byte set to read one word cost 6 % of a run.
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// The largest status a set can hold.
    public static let maxStatus = 639

    /// The empty set.
    public init() { words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }

    /// The set of `statuses`, e.g. `StatusSet(500...599)`; statuses outside 0…639 are ignored.
    public init<S: Sequence<Int>>(_ statuses: S) {
        self.init()
        for s in statuses { insert(s) }
    }

    /// The set of the listed statuses: `[500, 502, 503, 504]`; statuses outside 0…639 are ignored.
    public init(arrayLiteral elements: Int...) { self.init(elements) }

    /// Adds `status`; statuses outside 0…639 are ignored (no HTTP status lies there).
    public mutating func insert(_ status: Int) {
        guard status >= 0, status <= Self.maxStatus else { return }
        withUnsafeMutableBytes(of: &words) { raw in
            let w = raw.bindMemory(to: UInt64.self)
            w[status >> 6] |= 1 << UInt64(status & 63)
        }
    }

    /// Removes `status`; a status outside 0…639 (or not in the set) leaves it unchanged.
    public mutating func remove(_ status: Int) {
        guard status >= 0, status <= Self.maxStatus else { return }
        withUnsafeMutableBytes(of: &words) { raw in
            let w = raw.bindMemory(to: UInt64.self)
            w[status >> 6] &= ~(1 << UInt64(status & 63))
        }
    }

    /// Whether `status` is in the set; false for any status outside 0…639. Inlined: it runs for
    /// every failure classified.
    @inlinable @inline(__always) public func contains(_ status: Int) -> Bool {
        guard status >= 0, status <= Self.maxStatus else { return false }
        return word(status >> 6) & (1 << UInt64(status & 63)) != 0
    }

    @inlinable @inline(__always) func word(_ i: Int) -> UInt64 {
        withUnsafeBytes(of: words) { $0.load(fromByteOffset: i * 8, as: UInt64.self) }
    }

    /// The members in ascending order.
    public var members: [Int] { (0...Self.maxStatus).filter { contains($0) } }

    /// Equal when they hold the same statuses.
    public static func == (a: StatusSet, b: StatusSet) -> Bool { (0..<10).allSatisfy { a.word($0) == b.word($0) } }
    /// Hashes the members' bits, consistently with `==`.
    public func hash(into hasher: inout Hasher) { for i in 0..<10 { hasher.combine(word(i)) } }

    /// The members as text: ascending, runs of consecutive statuses as ranges (`"500,502-504"`),
    /// `"none"` when empty — the scenario files' status-list syntax.
    public var text: String {
        var parts: [String] = []
        var run: (first: Int, last: Int)?
        for s in members {
            if let r = run, s == r.last + 1 {
                run = (r.first, s)
                continue
            }
            if let r = run { parts.append(r.first == r.last ? "\(r.first)" : "\(r.first)-\(r.last)") }
            run = (s, s)
        }
        if let r = run { parts.append(r.first == r.last ? "\(r.first)" : "\(r.first)-\(r.last)") }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }

    /// Parses ``text``'s syntax: statuses and `low-high` ranges (0…639) separated by commas,
    /// spaces allowed; `"none"` or `""` for the empty set. Nil if malformed.
    public init?(text: String) {
        self.init()
        let t = text.filter { $0 != " " }
        if t.isEmpty || t == "none" { return }
        for item in t.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let lo = Int(bounds[0]), let hi = Int(bounds[bounds.count - 1]), lo <= hi, lo >= 0,
                hi <= Self.maxStatus
            else { return nil }
            for s in lo...hi { insert(s) }
        }
    }

    /// Written as ``text`` in policy files.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let t = try c.decode(String.self)
        guard let set = StatusSet(text: t) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected statuses such as \"500,502-504\" (each 0…\(Self.maxStatus)), or \"none\" (got \"\(t)\")")
        }
        self = set
    }

    /// Writes ``text``: `"500,502-504"`, or `"none"` for the empty set.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
