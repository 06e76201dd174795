/// One machine as a store lists it: its id, newest entry's number and summary.
public struct StoredMachine: Sendable, Equatable {
    /// The machine's key in the store: its id's `description`.
    public var id: String
    /// The number of its newest completed entry.
    public var sequenceNumber: UInt64
    /// Its state, status, schema and times.
    public var summary: MachineSummary
    /// The store's count of summary changes when this one was written: `changes(after:)`
    /// returns those above a number, in order.
    public var change: Int64

    /// A listed machine with these values.
    public init(id: String, sequenceNumber: UInt64, summary: MachineSummary, change: Int64) {
        self.id = id
        self.sequenceNumber = sequenceNumber
        self.summary = summary
        self.change = change
    }
}

/// How many machines of one schema are in one state; as JSON, `{"fingerprint", "state", "count"}`.
public struct StateCount: Sendable, Equatable, Codable {
    /// The schema's fingerprint.
    public var fingerprint: String
    /// The state's name.
    public var state: String
    /// The number of machines.
    public var count: Int

    /// A count with these values.
    public init(fingerprint: String, state: String, count: Int) {
        self.fingerprint = fingerprint
        self.state = state
        self.count = count
    }
}
