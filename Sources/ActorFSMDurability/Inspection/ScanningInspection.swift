import ActorFSM

/// Inspects any `MachineStore` by reading every machine's newest entries: what a store that
/// keeps no summary columns offers. Each question reads the whole store, so it suits stores of
/// thousands of machines, not millions.
///
/// It names states from the schemas it is given (a program's own, described with
/// ``StoredSchema/init(schema:durability:)``); without them it shows the state as the codec
/// wrote it.
public struct ScanningInspection: StoreInspection {
    /// The store read.
    public let store: any MachineStore
    /// The schemas whose states it names.
    public let schemas: [StoredSchema]

    /// Inspects `store`, naming states from `schemas`.
    public init(store: any MachineStore, schemas: [StoredSchema] = []) {
        self.store = store
        self.schemas = schemas
    }

    /// The schemas it was given.
    public func storedSchemas() async throws(StoreError) -> [StoredSchema] { schemas }

    /// Counts every machine's newest completed entry by schema and state.
    public func stateCounts() async throws(StoreError) -> [StateCount] {
        var counts: [String: [String: Int]] = [:]
        for machine in try await all() { counts[machine.summary.fingerprint, default: [:]][machine.summary.state, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.flatMap { fingerprint, states in
            states.sorted { $0.key < $1.key }.map { StateCount(fingerprint: fingerprint, state: $0.key, count: $0.value) }
        }
    }

    /// Filters and sorts every machine, then cuts the page.
    public func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        let listed = try await all().filter { machine in
            query.admits(machine) && (query.after.map { MachineCursor(machine) > $0 } ?? true)
        }.sorted { MachineCursor($0) < MachineCursor($1) }
        return MachinePage(machines: Array(listed.prefix(query.limit)), limit: query.limit)
    }

    /// Reads the machine's newest entries.
    public func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        summarize(id, try await store.latestEntries(of: id, count: Self.depth))
    }

    /// Every machine whose last transition is later than `change` milliseconds since 1970:
    /// this inspection numbers changes by time, having no counter of its own.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        let changed = try await all().filter { $0.change > change }.sorted { ($0.change, $0.id) < ($1.change, $1.id) }
        return Array(changed.prefix(limit))
    }

    /// Every entry of `machine`, from the store.
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await store.entries(of: machine)
    }

    /// How many newest entries are read per machine: an intent may sit on top of the newest
    /// completed one.
    private static let depth = 4

    private func all() async throws(StoreError) -> [StoredMachine] {
        let ids = try await store.machineIDs()
        let entries = try await store.latestEntries(of: ids, count: Self.depth)
        var machines: [StoredMachine] = []
        for id in ids {
            if let machine = summarize(id, entries[id] ?? []) { machines.append(machine) }
        }
        return machines
    }

    private func summarize(_ id: String, _ newestFirst: [JournalEntry]) -> StoredMachine? {
        StoredMachine(id: id, newestFirst: newestFirst, schemas: schemas)
    }
}

extension StoredMachine {
    /// The machine `id` as its newest completed entry among `newestFirst` describes it, its
    /// state named from `schemas`; `nil` if none of the entries is a readable completed one.
    /// Its change number is its last transition's time.
    package init?(id: String, newestFirst: [JournalEntry], schemas: [StoredSchema]) {
        for entry in newestFirst {
            guard let payload = JournalPayload(decoding: entry), payload.kind == .completed else { continue }
            let fingerprint = StoredSchema.hex(payload.fingerprint)
            let schema = schemas.first { $0.fingerprint == fingerprint }
                ?? StoredSchema(fingerprint: fingerprint, schemaVersion: Int(payload.schemaVersion),
                                description: SchemaDescription(name: "", initial: 0, states: [], transitions: []), encodedStates: [])
            let summary = schema.summary(of: payload)
            self.init(id: id, sequenceNumber: entry.sequenceNumber, summary: summary, change: summary.lastTransition)
            return
        }
        return nil
    }
}

extension StoredSchema {
    /// `schema` as a store of `durability` keeps it.
    public init<Definition: MachineDefinition>(schema: Schema<Definition>, durability: Durability<Definition>) throws
    where Definition.State: Codable {
        try self.init(schema: schema, codec: durability.store.codec, schemaVersion: durability.schemaVersion)
    }

    /// `schema` with its states encoded by `codec`, and the fingerprint its entries carry: a hash
    /// of the encoded states and of the names of its predicate types.
    init<Definition: MachineDefinition>(schema: Schema<Definition>, codec: any DurableCodec, schemaVersion: Int) throws
    where Definition.State: Codable {
        let storage = schema.storage
        let encodedStates = try storage.states.map { try codec.encode($0) }
        var hash = FNV1a()
        for state in encodedStates { hash.add(state) }
        for type in storage.table.predicateTypes { hash.add(Array(type.name.utf8)) }
        self.init(fingerprint: Self.hex(hash.value), schemaVersion: schemaVersion, description: SchemaDescription(schema),
                  encodedStates: encodedStates)
    }
}
