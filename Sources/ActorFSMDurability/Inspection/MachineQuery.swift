/// Which stored machines to list, and which page of them.
///
/// Machines come oldest last transition first (the longest stuck lead), then by id. Every
/// filter left `nil` lets every machine through.
///
/// ```swift
/// let stuck = try await store.machines(MachineQuery(state: "paymentPending").olderThan(.seconds(3600)))
/// for machine in stuck.machines { print(machine.id, machine.summary.status) }
/// ```
public struct MachineQuery: Sendable, Equatable {
    /// Only machines in the state of this name.
    public var state: String?
    /// Only machines with this status.
    public var status: MachineStatus?
    /// Only machines whose last transition was before this time, in milliseconds since 1970.
    public var lastTransitionBefore: Int64?
    /// Only machines written by the schema with this fingerprint.
    public var fingerprint: String?
    /// Only machines written with this user version of their schema.
    public var schemaVersion: Int?
    /// The most machines in a page: 1 to 10,000.
    public var limit: Int
    /// Where the page starts: the previous page's ``MachinePage/next``; the first page if `nil`.
    public var after: MachineCursor?

    /// A query with these filters.
    public init(
        state: String? = nil, status: MachineStatus? = nil, lastTransitionBefore: Int64? = nil, fingerprint: String? = nil,
        schemaVersion: Int? = nil, limit: Int = 100, after: MachineCursor? = nil
    ) {
        self.state = state
        self.status = status
        self.lastTransitionBefore = lastTransitionBefore
        self.fingerprint = fingerprint
        self.schemaVersion = schemaVersion
        self.limit = Swift.min(Swift.max(limit, 1), 10_000)
        self.after = after
    }

    /// This query, for machines whose last transition is at least `age` old by `clock`.
    public func olderThan(_ age: Duration, clock: any WallClock = SystemWallClock()) -> MachineQuery {
        var query = self
        query.lastTransitionBefore = clock.nanosecondsSince1970() / 1_000_000 - age.components.seconds * 1_000
            - age.components.attoseconds / 1_000_000_000_000_000
        return query
    }

    /// Whether `machine` passes the filters (the cursor aside).
    public func admits(_ machine: StoredMachine) -> Bool {
        let summary = machine.summary
        return (state.map { $0 == summary.state } ?? true)
            && (status.map { $0 == summary.status } ?? true)
            && (lastTransitionBefore.map { summary.lastTransition < $0 } ?? true)
            && (fingerprint.map { $0 == summary.fingerprint } ?? true)
            && (schemaVersion.map { $0 == summary.schemaVersion } ?? true)
    }
}

/// Where a page of machines ends: the last machine's time and id.
public struct MachineCursor: Sendable, Equatable, Comparable {
    /// The last transition of the page's last machine, in milliseconds since 1970.
    public var lastTransition: Int64
    /// The page's last machine's id.
    public var id: String

    /// A cursor at this machine.
    public init(lastTransition: Int64, id: String) {
        self.lastTransition = lastTransition
        self.id = id
    }

    /// The cursor of `machine`.
    public init(_ machine: StoredMachine) {
        self.init(lastTransition: machine.summary.lastTransition, id: machine.id)
    }

    /// The listing's order: by time, then by id.
    public static func < (lhs: MachineCursor, rhs: MachineCursor) -> Bool {
        (lhs.lastTransition, lhs.id) < (rhs.lastTransition, rhs.id)
    }
}

/// One page of machines.
public struct MachinePage: Sendable, Equatable {
    /// The machines, in the listing's order.
    public var machines: [StoredMachine]
    /// Where the next page starts, or `nil` if this is the last.
    public var next: MachineCursor?

    /// A page of `machines`; a full page (`limit` machines) has a next one.
    public init(machines: [StoredMachine], limit: Int) {
        self.machines = machines
        next = machines.count == limit ? machines.last.map(MachineCursor.init) : nil
    }
}
