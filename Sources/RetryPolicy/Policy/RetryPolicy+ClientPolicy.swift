/// The library's policy is the simulator's built-in ``ClientPolicy``: its own `admit`,
/// `attemptStarted`, `succeeded`, `decide`, `reconciled` and `restart` are the requirements, so
/// a custom policy and the library's run through the same engine code.
extension RetryPolicy: ClientPolicy {
    /// A fresh host state with this policy's budget.
    public func makeHostGuard() -> HostGuard { HostGuard(policy: self) }
}
