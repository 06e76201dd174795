/// Where a stored machine stands, as its newest entry says (or, once a purge kept its summary
/// alone, ``purged``).
public enum MachineStatus: String, Sendable, Codable, CaseIterable {
    /// In a state that is not final, with no timer pending: it waits for its next event.
    case running
    /// A timeout, a scheduled event or a retry is due at ``MachineSummary/waitingUntil``.
    case waiting
    /// Its last event's actions failed (outcome `.failed`).
    case failed
    /// In one of the schema's final states.
    case final
    /// Taken out of memory by its supervisor while idle; the next event brings it back.
    case passivated
    /// Paused by an operator: it takes no event until it is resumed, in this process or after
    /// a restart (see `Machine.pause(reason:)`).
    case paused
    /// Cancelled by an operator outright: it has ended for good, and is never restored (see
    /// `Supervisor.cancel(_:reason:)`).
    case cancelled
    /// Ended (final or cancelled), and its journal purged by a purge that kept its summary
    /// (`purge(_:keepingSummaries:)`): the summary, with the state it ended in, is all the store
    /// keeps of it. It has no history, and its summary names entry 0.
    case purged
}

/// What a store keeps of a machine beside its entries, in columns a query can index: written
/// with each completed entry, in the same commit.
public struct MachineSummary: Sendable, Equatable {
    /// The name of the machine's state (its `description`).
    public var state: String
    /// Where the machine stands.
    public var status: MachineStatus
    /// The fingerprint of the schema that wrote the entry, as 16 hexadecimal digits.
    public var fingerprint: String
    /// The user version of the schema and its data (`Durability.schemaVersion`).
    public var schemaVersion: Int
    /// When the machine last completed a transition, in milliseconds since 1970.
    public var lastTransition: Int64
    /// When its next timer is due, in milliseconds since 1970, if it waits for one.
    public var waitingUntil: Int64?

    /// A summary with these values.
    public init(
        state: String, status: MachineStatus, fingerprint: String, schemaVersion: Int, lastTransition: Int64,
        waitingUntil: Int64? = nil
    ) {
        self.state = state
        self.status = status
        self.fingerprint = fingerprint
        self.schemaVersion = schemaVersion
        self.lastTransition = lastTransition
        self.waitingUntil = waitingUntil
    }
}
