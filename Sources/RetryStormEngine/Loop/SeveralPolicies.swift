

/// A run with populations, each with its own policy.
enum SeveralPolicies: PolicyCount {
    @inline(__always) static var several: Bool { true }
}
