/// A store that deletes the journals of machines that have ended, so that a store that runs for
/// years keeps only what is still of use. `SQLiteStore`, `PostgresStore` and `InMemoryStore`
/// purge.
///
/// ```swift
/// let report = try await store.purge(MachineQuery().olderThan(.seconds(30 * 86_400)))
/// print("purged \(report.purged) machines")
/// ```
///
/// Only machines in a final state are purged, each only if its newest entry is still the one
/// its summary names: a machine that is running, waiting, failed or passivated is never
/// touched. Machines are deleted a batch at a time, each batch in a commit of its own that holds
/// the store's writer for about ``purgeBatchTarget`` at most, so that the machines running
/// beside a purge wait little for their own commits.
public protocol MachinePurging: StoreInspection {
    /// Deletes the entries of each of `machines` whose summary is final and still at the entry
    /// numbered as given, with its summary unless `keepingSummaries`; in one commit.
    ///
    /// - Returns: the ids of the machines deleted.
    func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String]
}

/// How long one batch of a purge may hold a store's writer: batches grow while they take less
/// than half of it and shrink when they take more.
public let purgeBatchTarget = Duration.milliseconds(50)

/// What a purge did, or would do.
public struct PurgeReport: Sendable, Equatable {
    /// How many machines were purged (for a dry run: would be).
    public var purged: Int
    /// The first ids purged, in the listing's order, at most 100.
    public var firstIDs: [String]
    /// The longest time one batch held the store's writer; zero for a dry run.
    public var longestBatch: Duration

    /// A report of these figures.
    public init(purged: Int, firstIDs: [String], longestBatch: Duration) {
        self.purged = purged
        self.firstIDs = firstIDs
        self.longestBatch = longestBatch
    }
}

extension MachinePurging {
    /// Deletes the journals of the final machines `query` lets through (its status, limit and
    /// cursor aside), with their summaries unless `keepingSummaries`: a machine whose summary
    /// stays is still listed and counted, with an empty history. A dry run deletes nothing and
    /// reports what would go.
    ///
    /// - Throws: `StoreError` if the store fails; the batches committed before stay purged, and
    ///   purging again goes on from there.
    public func purge(
        _ query: MachineQuery, keepingSummaries: Bool = false, dryRun: Bool = false
    ) async throws(StoreError) -> PurgeReport {
        var page = query
        page.status = .final
        page.after = nil
        var batchSize = 64
        page.limit = batchSize
        var report = PurgeReport(purged: 0, firstIDs: [], longestBatch: .zero)
        let clock = ContinuousClock()
        while true {
            let found = try await machines(page)
            let batch = found.machines.map { (id: $0.id, sequenceNumber: $0.sequenceNumber) }
            guard !batch.isEmpty else { return report }
            let start = clock.now
            let deleted = dryRun ? batch.map(\.id) : try await deleteJournals(of: batch, keepingSummaries: keepingSummaries)
            let took = clock.now - start
            report.purged += deleted.count
            report.firstIDs += deleted.prefix(100 - report.firstIDs.count)
            if !dryRun { report.longestBatch = max(report.longestBatch, took) }
            guard let next = found.next else { return report }
            page.after = next
            if !dryRun { batchSize = took > purgeBatchTarget / 2 ? max(batchSize / 2, 1) : min(batchSize * 2, 4_096) }
            page.limit = dryRun ? 1_000 : batchSize
        }
    }
}
