/// What operators ask of a store, answered without the machines' Swift schema: how many
/// machines are in each state, which ones (stuck ones first), and what happened to one.
///
/// `SQLiteStore`, `PostgresStore` and `InMemoryStore` answer from the summary columns they
/// keep with each entry, through indexes; `SQLiteReader` and `PostgresReader` answer from
/// another process, beside the one that writes, without taking its locks. Any other store is
/// inspected by ``ScanningInspection``, which reads every machine's newest entry.
///
/// ```swift
/// for count in try await store.stateCounts() { print(count.state, count.count) }
/// let stuck = try await store.machines(MachineQuery(state: "paymentPending").olderThan(.seconds(3600)))
/// let story = try await store.history(of: "o-1042")
/// ```
public protocol StoreInspection: Sendable {
    /// Every schema that has written to the store, as it described itself.
    func storedSchemas() async throws(StoreError) -> [StoredSchema]

    /// How many machines are in each state, per schema fingerprint.
    func stateCounts() async throws(StoreError) -> [StateCount]

    /// One page of the machines `query` lets through, oldest last transition first.
    func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage

    /// The machine with key `id`, if the store holds it.
    func machine(_ id: String) async throws(StoreError) -> StoredMachine?

    /// Machines whose summary changed after change number `change`, in the order of their
    /// changes, at most `limit`: what a watcher polls for, passing the last change it saw.
    func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine]

    /// Every entry of `machine`, oldest first.
    func entries(of machine: String) async throws(StoreError) -> [JournalEntry]
}

extension StoreInspection {
    /// What happened to the machine with key `id`: each of its stored entries, decoded without
    /// its Swift schema, oldest first. A compacted journal starts at its oldest kept entry.
    public func history(of id: String) async throws(StoreError) -> [HistoryEntry] {
        let entries = try await entries(of: id)
        let schemas = try await storedSchemas()
        return entries.map { HistoryEntry($0, schemas: schemas) }
    }

    /// The counts of ``stateCounts()`` for the schema with `fingerprint`, keyed by state name.
    public func counts(of fingerprint: String) async throws(StoreError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for count in try await stateCounts() where count.fingerprint == fingerprint { counts[count.state, default: 0] += count.count }
        return counts
    }
}

/// A store that keeps schemas' descriptions: a durable supervisor or machine hands its schema's
/// description over when it is made, and the store keeps the first it gets per fingerprint.
public protocol SchemaRecording: Sendable {
    /// Keeps `schema` under its fingerprint, unless the store has one there already: at once
    /// or with the next write, in that write's commit. It returns without waiting, and does
    /// nothing for a fingerprint it has recorded before.
    func record(_ schema: StoredSchema)
}

/// A store that marks passivated machines in their summaries: a durable supervisor tells it
/// which machines it took out of memory, each with the number of its newest entry.
public protocol PassivationRecording: Sendable {
    /// Marks each of `machines` passivated if its newest entry is still the one numbered as
    /// given and it was running or waiting; a final or failed machine keeps its status.
    func recordPassivated(_ machines: [(id: String, sequenceNumber: UInt64)])
}
