import ActorFSM
import ActorFSMDurability

/// Summaries made from the journal: every machine's, for a store written before summaries
/// existed, or those of the machines whose rows lag their journal after a crash.
extension SQLiteSummaries {
    /// Writes, in the transaction in progress, each machine's summary from its newest completed
    /// entry in the journal, its state named from the schemas the store describes.
    ///
    /// - Returns: whether it wrote any.
    func fill() throws(StoreError) -> Bool {
        let schemas = try storedSchemas()
        var machines: [StoredMachine] = []
        var current: (id: String, entries: [JournalEntry])?
        func flush() {
            if let current, let machine = StoredMachine(id: current.id, newestFirst: current.entries, schemas: schemas) {
                machines.append(machine)
            }
        }
        try connection.rows("SELECT machine, sequence, payload FROM journal ORDER BY machine, sequence DESC") { row in
            let id = row.text(0)
            if current?.id != id {
                flush()
                current = (id, [])
            }
            // The newest few suffice: an intent may sit on top of the newest completed entry.
            if current?.entries.count ?? 0 < 4 {
                current?.entries.append(JournalEntry(machine: id, sequenceNumber: UInt64(bitPattern: row.int(1)),
                                                     payload: row.blob(2)))
            }
        }
        flush()
        for machine in machines { try write(machine) }
        return !machines.isEmpty
    }

    /// Rewrites, in a transaction of its own that also clears the flag, the row of every
    /// machine whose newest journal entry is newer than its row: the summaries that waited when
    /// the process writing them ended without closing the store.
    ///
    /// A machine whose newest entry is an intent is read again too, and keeps its row. A row a
    /// purge kept (`purged`, at entry 0) whose id has a journal again is a new machine's.
    func catchUp() throws(StoreError) {
        try inTransaction { () throws(StoreError) in
            let schemas = try storedSchemas()
            var lagging: [String] = []
            try connection.rows("""
                SELECT j.machine FROM (SELECT machine, MAX(sequence) AS newest FROM journal GROUP BY machine) AS j
                LEFT JOIN machines AS m ON m.machine = j.machine
                WHERE m.sequence IS NULL OR m.sequence < j.newest OR m.status = 'purged'
                """) { lagging.append($0.text(0)) }
            for id in lagging {
                let entries = try connection.entries(of: id, newest: 4)
                if let machine = StoredMachine(id: id, newestFirst: entries, schemas: schemas) { try write(machine) }
            }
            try connection.execute("DELETE FROM summary_flags WHERE name = 'lagging'")
        }
    }

    private func storedSchemas() throws(StoreError) -> [StoredSchema] {
        var schemas: [StoredSchema] = []
        try connection.rows("SELECT description FROM schemas") { row in
            if let schema = StoredSchema(json: row.text(0)) { schemas.append(schema) }
        }
        return schemas
    }

    private func write(_ machine: StoredMachine) throws(StoreError) {
        try write(machine.summary, of: JournalEntry(machine: machine.id, sequenceNumber: machine.sequenceNumber, payload: []))
    }
}
