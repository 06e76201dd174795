import ActorFSMDurability

/// Summaries made from the journal: every machine's, for a database an earlier release wrote,
/// or those that processes which died left waiting.
extension PostgresConnection {
    /// Fills the summary table from the journal when a database written by an earlier release
    /// has entries and no summaries: each machine's newest completed entry, decoded. A write
    /// that lands meanwhile keeps its own, newer row.
    ///
    /// - Returns: whether it filled any: a schema recorded later then names their states.
    func fillSummariesIfEmpty() throws(StoreError) -> Bool {
        let rows = try query("""
            SELECT (NOT EXISTS (SELECT 1 FROM actorfsm_machines)) AND EXISTS (SELECT 1 FROM actorfsm_journal)
            """)
        guard rows.count > 0, rows.integer(0, 0) != 0 else { return false }
        try fillSummaries(PostgresSchema.fillSummaries)
        return true
    }

    /// Writes each machine's summary from its newest completed entry, its state named from the
    /// schemas the store describes, in one transaction, by `statement`: one of `PostgresSchema`'s
    /// `fillSummaries` (keeping every row there), `refillSummaries` (replacing rows of the same
    /// entry, to name their states once a schema is recorded) and `writeNewerSummaries`
    /// (replacing rows of older entries). With `only`, the machines named there alone.
    func fillSummaries(_ statement: String, only ids: [String]? = nil) throws(StoreError) {
        let schemas = try storedSchemas()
        var machines: [StoredMachine] = []
        func add(_ entries: [String: [JournalEntry]]) {
            for (id, newestFirst) in entries {
                if let machine = StoredMachine(id: id, newestFirst: newestFirst, schemas: schemas) { machines.append(machine) }
            }
        }
        if let ids {
            for start in stride(from: 0, to: ids.count, by: 10_000) {
                add(try entries(of: Array(ids[start..<min(start + 10_000, ids.count)]), newest: 4))
            }
        } else {
            let rows = try query("""
                SELECT machine, seq, payload FROM (
                    SELECT machine, seq, payload, row_number() OVER (PARTITION BY machine ORDER BY seq DESC) AS r
                    FROM actorfsm_journal) AS j
                WHERE r <= 4 ORDER BY machine, seq DESC
                """)
            add(Self.entries(in: rows))
        }
        machines.sort { $0.id < $1.id }
        // A catch-up commits each chunk alone, so that it holds few rows' locks at a time while
        // the machines' holders write theirs; a fill of a store's first summaries, all at once.
        let together = ids == nil
        if together { try execute("BEGIN") }
        do {
            for start in stride(from: 0, to: machines.count, by: together ? 10_000 : 1_000) {
                let chunk = machines[start..<min(start + (together ? 10_000 : 1_000), machines.count)]
                _ = try query(statement, PostgresSummaries.parameters(chunk.map { ($0.id, $0.sequenceNumber, $0.summary, 0) }))
            }
            if together { try execute("COMMIT") }
        } catch {
            if together { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Rewrites from the journal the summaries that processes which died left waiting: once a
    /// process that wrote summaries late has no life left (it ended without closing its store),
    /// every row behind its machine's journal is written again, and the process forgotten.
    ///
    /// The rows are written in chunks that commit alone; the forgetting commits with a second
    /// pass, over what lags once the processes' rows are deleted, so that a failure leaves them
    /// named for the next catch-up. An append locks its process's row until it commits: a
    /// process only paused commits its entries either before the deletion (which waits for the
    /// lock), so that the second pass reads them, or after it, naming itself again.
    func catchUpSummaries() throws(StoreError) {
        let dead = try query(PostgresSchema.deadSummaryWriters)
        guard dead.count > 0 else { return }
        try fillSummaries(PostgresSchema.writeNewerSummaries, only: try laggingMachines())
        try execute("BEGIN")
        do {
            try query(PostgresSchema.forgetDeadSummaryWriters, [.texts((0..<dead.count).map { dead.text($0, 0) }),
                                                                 .texts((0..<dead.count).map { dead.text($0, 1) })])
            try fillSummaries(PostgresSchema.writeNewerSummaries, only: try laggingMachines())
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The machines whose summaries lag their journals.
    private func laggingMachines() throws(StoreError) -> [String] {
        let lagging = try query(PostgresSchema.laggingSummaries)
        return (0..<lagging.count).map { lagging.text($0, 0) }
    }

    /// Rewrites from the journal the summaries of those of `machines` whose rows lag it.
    func catchUpSummaries(of machines: [String]) throws(StoreError) {
        let lagging = try query(PostgresSchema.laggingSummariesOf, [.texts(machines)])
        guard lagging.count > 0 else { return }
        try fillSummaries(PostgresSchema.writeNewerSummaries, only: (0..<lagging.count).map { lagging.text($0, 0) })
    }

    /// Whether a process that wrote summaries late died without closing its store.
    func hasDeadSummaryWriters() throws(StoreError) -> Bool {
        try query(PostgresSchema.deadSummaryWriters).count > 0
    }
}
