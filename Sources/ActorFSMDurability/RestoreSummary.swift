import ActorFSM

/// What `Supervisor/restoreAll(includingFinal:checkingCompatibility:)` did: how many machines it restored, and why
/// each of the others could not be.
public struct RestoreSummary: Sendable, CustomStringConvertible {
    /// How many machines were restored and run now.
    public var restored = 0
    /// The error of each machine that could not be restored (damaged, or of a state or data the
    /// schema cannot read); each names its machine. They stay in the store as they are.
    public var failures: [DurabilityError] = []

    /// An empty summary.
    public init() {}

    /// `restored 998 machines; 2 could not be: …`.
    public var description: String {
        let restoredPart = "restored \(restored) machine\(restored == 1 ? "" : "s")"
        guard !failures.isEmpty else { return restoredPart }
        return restoredPart + "; \(failures.count) could not be: " + failures.map { "\($0)" }.joined(separator: "; ")
    }
}
