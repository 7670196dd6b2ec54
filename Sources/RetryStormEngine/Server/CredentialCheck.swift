import GSLSupport
import RetryPolicy

/// The server's credential check (`clients.credential_lifetime`): a request whose client's
/// credentials have expired is answered 401 without being processed, until the client refreshes
/// them (``RetryDecision/refreshCredentials(at:)``). Off (every request passes) without a lifetime.
struct CredentialCheck: ~Copyable {
    /// How long refreshed credentials stay good, nanoseconds; nil: the check is off.
    let lifetime: Int64?
    /// Per client: when its credentials expire, nanoseconds.
    private var expiry: RawBuffer<Int64>

    init(lifetime: Int64?, clients: Int, seed: UInt64) {
        self.lifetime = lifetime
        expiry = RawBuffer(capacity: lifetime != nil ? clients : 1)
        guard let lifetime else { return }
        // Credentials were issued at different moments before t = 0: each expires uniformly within one lifetime.
        for c in 0..<clients {
            let u = Double(SeedDerivation.mix(seed ^ 0x5EED_7043 ^ UInt64(c)) >> 11) * 0x1.0p-53
            expiry.append(Int64(u * Double(lifetime)))
        }
    }

    /// Whether `client`'s credentials are rejected at `now`.
    /// The same credentials' expiries as `other` (a snapshot's).
    init(copying other: borrowing CredentialCheck) {
        lifetime = other.lifetime
        expiry = RawBuffer(copying: other.expiry)
    }

    @inline(__always) func refuses(client: UInt32, now: Int64) -> Bool {
        guard let lifetime else { return false }
        return now >= expiry[Int(client)] && lifetime > 0
    }

    /// `client` refreshed its credentials, the refresh completing at `at`: good for a lifetime from then.
    @inline(__always) mutating func refreshed(client: UInt32, at: Int64) {
        guard let lifetime else { return }
        expiry[Int(client)] = Time.adding(at, lifetime)
    }
}
