/// What a supervisor's core reads of a machine it registered.
@usableFromInline package protocol SupervisedMachine: AnyObject, Sendable {
    /// The generation the supervisor gave it: a report from a machine already replaced carries
    /// an older one.
    var generation: UInt64 { get }
    /// Whether its state in memory is ahead of its store (a write failed), so that a restart
    /// must come from the store.
    var hasStaleState: Bool { get }
}
