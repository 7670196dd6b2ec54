/// Whether a request reached the server.
public enum Reach: UInt8, Sendable, Hashable, Codable {
    case no, yes, unknown
}
