import ActorFSMDurability

/// One machine's journal as a store holds it, for a ``Replay`` through a new version of its
/// schema.
public struct StoredHistory: Sendable, Equatable {
    /// The machine's id, as the store holds it.
    public let machine: String
    /// Its entries, oldest first.
    public let entries: [JournalEntry]

    /// The history of `machine` made of `entries`.
    public init(machine: String, entries: [JournalEntry]) {
        self.machine = machine
        self.entries = entries.sorted { $0.sequenceNumber < $1.sequenceNumber }
    }

    /// The histories of the machines `query` selects in `store` (every page of them), read
    /// beside the store's writer: a sample of production's machines to replay in a test.
    ///
    /// - Throws: the store's error.
    public static func read(from store: any StoreInspection, matching query: MachineQuery = MachineQuery(limit: 1_000))
    async throws(StoreError) -> [StoredHistory] {
        var histories: [StoredHistory] = []
        var query = query
        while true {
            let page = try await store.machines(query)
            for machine in page.machines {
                histories.append(StoredHistory(machine: machine.id, entries: try await store.entries(of: machine.id)))
            }
            guard let next = page.next else { return histories }
            query.after = next
        }
    }
}
