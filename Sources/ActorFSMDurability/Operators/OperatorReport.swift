/// What an operator's verb did, or would do, to the machines a query selected: see
/// `Supervisor.act(_:on:reason:dryRun:)` and ``MachineStore/act(_:on:reason:dryRun:wallClock:)``.
public struct OperatorReport: Sendable, Equatable {
    /// A machine the verb could not change, and why.
    public struct Failure: Sendable, Equatable {
        /// The machine's id, as the store knows it.
        public var machine: String
        /// Why, as the verb's error says it.
        public var reason: String

        /// A machine that `reason` kept from being changed.
        public init(machine: String, reason: String) {
            (self.machine, self.reason) = (machine, reason)
        }
    }

    /// How many machines the query selected that the verb can change: not final, cancelled or
    /// purged; for a pause or a signal, not paused; for a resume, paused; for a retry, failed.
    public var selected: Int
    /// The first of them, at most 100, in the listing's order (longest since their last
    /// transition first).
    public var firstIDs: [String]
    /// Whether nothing was done: the report lists what the verb would touch.
    public var isDryRun: Bool
    /// How many the verb changed (0 for a dry run).
    public var changed: Int
    /// Those it could not change, in the listing's order.
    public var failures: [Failure]

    /// A report of `selected` machines, the first of which are `firstIDs`.
    public init(selected: Int, firstIDs: [String], isDryRun: Bool, changed: Int = 0, failures: [Failure] = []) {
        self.selected = selected
        self.firstIDs = firstIDs
        self.isDryRun = isDryRun
        self.changed = changed
        self.failures = failures
    }

    /// The report of a dry run over `machines`.
    init(dryRunOver machines: [StoredMachine]) {
        self.init(selected: machines.count, firstIDs: machines.prefix(100).map(\.id), isDryRun: true)
    }
}
