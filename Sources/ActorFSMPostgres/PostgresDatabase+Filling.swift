import ActorFSMDurability

extension PostgresDatabase {
    /// Fills the summary table from the journal when a database written by an earlier release
    /// has entries and no summaries: each machine's newest completed entry, decoded. A write
    /// that lands meanwhile keeps its own, newer row.
    ///
    /// - Returns: whether it filled any: a schema recorded later then names their states.
    func fillSummariesIfEmpty() throws(StoreError) -> Bool {
        let rows = try connection.query("""
            SELECT (NOT EXISTS (SELECT 1 FROM actorfsm_machines)) AND EXISTS (SELECT 1 FROM actorfsm_journal)
            """)
        guard rows.count > 0, rows.integer(0, 0) != 0 else { return false }
        try fillSummaries(replacing: false)
        return true
    }

    /// Writes each machine's summary from its newest completed entry, its state named from the
    /// schemas the store describes, in one transaction; `replacing` rows of the same entry
    /// (to name their states once a schema is recorded), else keeping every row there.
    func fillSummaries(replacing: Bool) throws(StoreError) {
        let entries = try connection.query("""
            SELECT machine, seq, payload FROM (
                SELECT machine, seq, payload, row_number() OVER (PARTITION BY machine ORDER BY seq DESC) AS r
                FROM actorfsm_journal) AS j
            WHERE r <= 4 ORDER BY machine, seq DESC
            """)
        let schemas = try connection.storedSchemas()
        var machines: [StoredMachine] = []
        var current: (id: String, entries: [JournalEntry])?
        func flush() {
            if let current, let machine = StoredMachine(id: current.id, newestFirst: current.entries, schemas: schemas) {
                machines.append(machine)
            }
        }
        for row in 0..<entries.count {
            let id = entries.text(row, 0)
            if current?.id != id {
                flush()
                current = (id, [])
            }
            current?.entries.append(JournalEntry(machine: id, sequenceNumber: UInt64(bitPattern: entries.integer(row, 1)),
                                                 payload: entries.bytes(row, 2)))
        }
        flush()
        try connection.execute("BEGIN")
        do {
            try insert(machines, replacing: replacing)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func insert(_ machines: [StoredMachine], replacing: Bool) throws(StoreError) {
        for start in stride(from: 0, to: machines.count, by: 10_000) {
            let chunk = machines[start..<min(start + 10_000, machines.count)]
            _ = try connection.query(replacing ? PostgresSchema.refillSummaries : PostgresSchema.fillSummaries, [
                .texts(chunk.map(\.id)), .integers(chunk.map { Int64(bitPattern: $0.sequenceNumber) }),
                .texts(chunk.map(\.summary.state)), .texts(chunk.map(\.summary.status.rawValue)),
                .texts(chunk.map(\.summary.fingerprint)), .integers(chunk.map { Int64($0.summary.schemaVersion) }),
                .integers(chunk.map(\.summary.lastTransition)), .integers(chunk.map { $0.summary.waitingUntil ?? 0 })])
        }
    }
}
