import ActorFSM

/// How a machine, or every machine of a supervisor, is kept in a store: which store, when
/// `send` returns, how often the journal is compacted, and how older schemas' entries are read.
///
/// ```swift
/// let store = try SQLiteStore(path: "orders.sqlite")
/// let order = try await Machine(schema: orders, id: "o-1042", data: Purchase(amount: 99, attempts: 0),
///                               durability: Durability(store: store))
/// ```
///
/// States, events, data and the machine id must be `Codable` (the id as text, through
/// `LosslessStringConvertible`). See <doc:DurableMachines> for what a crash can and cannot lose.
public struct Durability<Definition: MachineDefinition>: Sendable {
    /// Where the journal is written.
    public var store: any MachineStore
    /// When `send` returns; ``Acknowledgement/durable`` by default.
    public var acknowledgement: Acknowledgement
    /// Every this many entries, a write removes the machine's older entries (each entry holds the
    /// machine's whole state, so the newest one is its snapshot); 0 keeps every entry.
    public var compactionInterval: Int
    /// The version of the schema and data types, written with every entry; a machine whose
    /// stored version differs has its data read through ``migration``.
    public var schemaVersion: Int
    /// How entries an older schema wrote are read; without one, a stored state the schema does
    /// not know is an error naming the machine and the state.
    public var migration: SchemaMigration<Definition>?
    /// The clock that timer deadlines are written in.
    public var wallClock: any WallClock
    /// How many times in a row a durable supervisor restores a machine whose writes its store
    /// refuses while it still reads (a full disk) before it parks the machine. Each restore
    /// processes the machine's interrupted event again (its action runs again if the store takes
    /// the intent); a parked machine waits, with no action run, until the store accepts a
    /// completed entry of any machine of the supervisor, or `Supervisor.resumeParkedMachines()`.
    /// A completed entry of the machine's own written in between starts the count over. 5 by
    /// default; at least 1.
    public var restoresBeforeParking: Int
    /// The event an operator's cancel sends a machine whose state handles it, so that the
    /// workflow compensates (`Supervisor.cancel(_:reason:)`); a machine whose state does not,
    /// or every machine if `nil`, is ended for good instead.
    public var cancelling: Definition.Event?
    /// How often a durable supervisor over a store that carries operators' requests
    /// (``OperatorRequestQueue``: `SQLiteStore`, `PostgresStore`) takes those for its machines,
    /// which the `actorfsm` command sends when this process holds them; `nil` takes none. Once a
    /// second by default, on the machines' clock.
    public var operatorRequestInterval: Duration? = .seconds(1)

    /// A durability configuration.
    ///
    /// - Parameters:
    ///   - store: where the journal is written.
    ///   - acknowledgement: when `send` returns.
    ///   - compactionInterval: how many entries a machine writes between compactions; 0 never.
    ///   - schemaVersion: the user version of the schema and its data.
    ///   - migration: how an older schema's entries are read.
    ///   - wallClock: the calendar clock of timer deadlines.
    ///   - restoresBeforeParking: how many restores in a row a machine whose writes fail gets
    ///     before its supervisor parks it; see ``restoresBeforeParking``.
    ///   - cancelling: the event an operator's cancel sends; see ``cancelling``.
    @inlinable
    public init(
        store: any MachineStore, acknowledgement: Acknowledgement = .durable, compactionInterval: Int = 100,
        schemaVersion: Int = 1, migration: SchemaMigration<Definition>? = nil,
        wallClock: any WallClock = SystemWallClock(), restoresBeforeParking: Int = 5, cancelling: Definition.Event? = nil
    ) {
        self.store = store
        self.acknowledgement = acknowledgement
        self.compactionInterval = max(0, compactionInterval)
        self.schemaVersion = schemaVersion
        self.migration = migration
        self.wallClock = wallClock
        self.restoresBeforeParking = max(1, restoresBeforeParking)
        self.cancelling = cancelling
        // Made here, where the definition's types are concrete: the durable machines' drains,
        // started by the store's threads and timers, then run specialized code.
        DrainStarters.register(Definition.self)
    }
}
