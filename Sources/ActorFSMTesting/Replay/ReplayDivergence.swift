/// Where a stored history and a new version of its schema part: an entry the new version
/// cannot read, or an event it resolves otherwise than the stored entry records.
public struct ReplayDivergence: Sendable, Equatable, CustomStringConvertible {
    /// The machine's id.
    public let machine: String
    /// The entry's sequence number.
    public let sequenceNumber: UInt64
    /// What the stored entry records: `pay: paymentPending → paid`, or the stored outcome.
    public let stored: String
    /// What the new version does instead, or why it cannot read the entry.
    public let replayed: String

    /// A divergence at entry `sequenceNumber` of `machine`.
    public init(machine: String, sequenceNumber: UInt64, stored: String, replayed: String) {
        self.machine = machine
        self.sequenceNumber = sequenceNumber
        self.stored = stored
        self.replayed = replayed
    }

    /// The machine, the entry, and both outcomes.
    public var description: String { "machine \(machine), entry \(sequenceNumber): stored \(stored); now \(replayed)" }
}
