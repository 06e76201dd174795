import ActorFSMDurability

/// The schemas and counts every page asks for when transitions come: read from the store at
/// most once per `freshness`, and once at a time, however many pages ask.
actor OverviewCache {
    private let store: any StoreInspection
    private let freshness: Duration
    private var kept: (schemas: [StoredSchema], counts: [StateCount], at: ContinuousClock.Instant)?
    private var reading: Task<(schemas: [StoredSchema], counts: [StateCount]), any Error>?

    init(store: any StoreInspection, freshness: Duration = .seconds(1)) {
        self.store = store
        self.freshness = freshness
    }

    /// The stored schemas and the counts per state, read at most `freshness` ago.
    func overview() async throws -> (schemas: [StoredSchema], counts: [StateCount]) {
        if let kept, ContinuousClock.now - kept.at < freshness { return (kept.schemas, kept.counts) }
        if let reading { return try await reading.value }
        let store = store
        let task = Task { () async throws -> (schemas: [StoredSchema], counts: [StateCount]) in
            (try await store.storedSchemas(), try await store.stateCounts())
        }
        reading = task
        defer { reading = nil }
        let read = try await task.value
        kept = (read.schemas, read.counts, .now)
        return read
    }
}
