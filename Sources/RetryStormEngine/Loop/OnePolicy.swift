

/// A run with one policy: every operation has population 0's.
enum OnePolicy: PolicyCount {
    @inline(__always) static var several: Bool { false }
}
