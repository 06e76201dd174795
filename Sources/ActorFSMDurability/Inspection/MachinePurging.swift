/// A store that deletes the journals of machines that have ended, so that a store that runs for
/// years keeps only what is still of use. `SQLiteStore`, `PostgresStore` and `InMemoryStore`
/// purge.
///
/// ```swift
/// let report = try await store.purge(MachineQuery().olderThan(.seconds(30 * 86_400)))
/// print("purged \(report.purged) machines")
/// ```
///
/// Only machines that have ended are purged (in a final state, or cancelled by an operator),
/// each only if its newest entry is still the one its summary names: a machine that is
/// running, waiting, failed, passivated or paused is never touched. A machine purged loses its
/// journal, and its summary too unless the purge keeps summaries: a kept summary's status is
/// then ``MachineStatus/purged``, and a later purge that keeps none drops it. Machines are
/// deleted a batch at a time, each batch in a commit of its own that holds the store's writer for about
/// ``purgeBatchTarget`` at most, so that the machines running beside a purge wait little for
/// their own commits.
public protocol MachinePurging: StoreInspection {
    /// Deletes the entries of each of `machines` whose summary is final or cancelled and still
    /// at the entry numbered as given, or purged (at entry 0), with its summary; or, if
    /// `keepingSummaries`, keeps the summary of each final or cancelled one, its status made
    /// ``MachineStatus/purged`` and its entry 0. In one commit.
    ///
    /// - Returns: the ids of the machines deleted.
    func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String]
}

/// How long one batch of a purge may hold a store's writer: batches grow while they take less
/// than a quarter of it and shrink when they take more than half.
public let purgeBatchTarget = Duration.milliseconds(50)

/// What a purge did, or would do.
public struct PurgeReport: Sendable, Equatable {
    /// How many machines were purged (for a preview: would be).
    public var purged: Int
    /// The first ids purged, in the listing's order, at most 100.
    public var firstIDs: [String]
    /// The longest time one batch took, its wait for the store included; zero for a preview.
    public var longestBatch: Duration

    /// A report of these figures.
    public init(purged: Int, firstIDs: [String], longestBatch: Duration) {
        self.purged = purged
        self.firstIDs = firstIDs
        self.longestBatch = longestBatch
    }

    /// Counts `ids`, purged in a batch that took `took`.
    mutating func add(_ ids: [String], took: Duration) {
        purged += ids.count
        firstIDs += ids.prefix(100 - firstIDs.count)
        longestBatch = max(longestBatch, took)
    }
}

extension StoreInspection {
    /// What ``MachinePurging/purge(_:keepingSummaries:)`` would delete now: the final and
    /// cancelled machines `query` lets through, and (unless `keepingSummaries`) the summaries
    /// an earlier purge kept (of those, only the status the query names; limit and cursor
    /// aside). Any store answers it, a reader beside the writer included.
    public func purgePreview(_ query: MachineQuery, keepingSummaries: Bool = false) async throws(StoreError) -> PurgeReport {
        var page = MachinePurgingPages(query, limit: 1_000, keepingSummaries: keepingSummaries)
        var report = PurgeReport(purged: 0, firstIDs: [], longestBatch: .zero)
        while let batch = try await page.next(in: self) { report.add(batch.map(\.id), took: .zero) }
        return report
    }
}

extension MachinePurging {
    /// Deletes the journals and summaries of the final and cancelled machines `query` lets
    /// through (of those, only the status it names; limit and cursor aside), and the summaries
    /// an earlier purge kept. With `keepingSummaries`, it keeps the summaries of the machines it
    /// purges, with the status ``MachineStatus/purged``: listings and counts still show them,
    /// their histories are gone.
    ///
    /// - Throws: `StoreError` if the store fails; the batches committed before stay purged, and
    ///   purging again goes on from there.
    public func purge(_ query: MachineQuery, keepingSummaries: Bool = false) async throws(StoreError) -> PurgeReport {
        var page = MachinePurgingPages(query, limit: 64, keepingSummaries: keepingSummaries)
        var report = PurgeReport(purged: 0, firstIDs: [], longestBatch: .zero)
        let clock = ContinuousClock()
        while let batch = try await page.next(in: self) {
            let start = clock.now
            let deleted = try await deleteJournals(of: batch, keepingSummaries: keepingSummaries)
            let took = clock.now - start
            report.add(deleted, took: took)
            // Doubled only while a batch takes less than a quarter of the target, a batch stays
            // under half of it, with room for a slower disk or a busier store.
            if took > purgeBatchTarget / 2 {
                page.limit = max(page.limit / 2, 1)
            } else if took < purgeBatchTarget / 4 {
                page.limit = min(page.limit * 2, 4_096)
            }
        }
        return report
    }
}

/// The ended machines of a query, a page at a time, each page starting after the last. The
/// pages are read without a status (and filtered here): a listing by state reads the stores'
/// state index one range per state, where one by status reads the whole summary table.
struct MachinePurgingPages {
    private var query: MachineQuery
    private var isDone = false
    /// The statuses purged: final and cancelled, and purged unless summaries are kept, or the
    /// one of them the query names (none if it names another).
    private let statuses: [MachineStatus]
    var limit: Int

    init(_ query: MachineQuery, limit: Int, keepingSummaries: Bool) {
        statuses = (keepingSummaries ? [.final, .cancelled] : [.final, .cancelled, .purged])
            .filter { query.status == nil || query.status == $0 }
        self.query = query
        self.query.status = nil
        self.query.after = nil
        self.limit = limit
    }

    /// The next ended machines and their entries, or `nil` once there are none.
    mutating func next(in store: some StoreInspection) async throws(StoreError) -> [(id: String, sequenceNumber: UInt64)]? {
        while !isDone {
            query.limit = limit
            let found = try await store.machines(query)
            query.after = found.next
            isDone = found.next == nil
            let batch = found.machines.filter { statuses.contains($0.summary.status) }.map { (id: $0.id, sequenceNumber: $0.sequenceNumber) }
            if !batch.isEmpty { return batch }
        }
        return nil
    }
}
