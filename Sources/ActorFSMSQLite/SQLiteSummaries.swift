import ActorFSM
import ActorFSMDurability
import CSQLite

/// The machines' summaries and the schemas' descriptions of a SQLite store, written in the
/// journal's own transactions. Used only on the store's thread.
///
/// `machines` holds a row per machine (its newest state, status, schema and times), indexed
/// by state; its rows are stored in the order of their change numbers, which are their rowids,
/// so that listing changes needs no index of its own. `schemas` holds each schema's
/// description as JSON.
final class SQLiteSummaries {
    private unowned let connection: SQLiteConnection
    private var upsert: OpaquePointer?
    private var insertSchema: OpaquePointer?
    /// The change number the next summary gets.
    private var nextChange: Int64 = 1
    /// The next change number when the transaction in progress began.
    private var changeAtBegin: Int64 = 1
    /// Schemas to write with the next commit.
    private var pendingSchemas: [StoredSchema] = []
    /// Fingerprints written or pending.
    private var recorded: Set<String> = []
    /// Whether rows were filled from the journal at this open: a schema recorded later names
    /// their states and says which are final, so they are filled again then.
    private var refillOnRecord = false

    static let tables = [
        """
        CREATE TABLE IF NOT EXISTS machines (
            change INTEGER PRIMARY KEY, machine TEXT NOT NULL UNIQUE, sequence INTEGER NOT NULL, state TEXT NOT NULL,
            status TEXT NOT NULL, fingerprint TEXT NOT NULL, schema_version INTEGER NOT NULL,
            last_transition INTEGER NOT NULL, waiting_until INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS machines_by_state ON machines (state, fingerprint, last_transition)",
        """
        CREATE TABLE IF NOT EXISTS schemas (
            fingerprint TEXT NOT NULL PRIMARY KEY, schema_version INTEGER NOT NULL, description TEXT NOT NULL
        ) WITHOUT ROWID
        """,
    ]

    /// Makes the tables if need be, and fills `machines` from the journal of a store written
    /// before it existed.
    init(_ connection: SQLiteConnection) throws(StoreError) {
        self.connection = connection
        let existed = try connection.hasTable("machines")
        // A store written before the summaries gets its tables and rows in one transaction: a
        // crash in between leaves no table, and the next open fills again.
        if !existed { try connection.execute("BEGIN IMMEDIATE") }
        for sql in Self.tables { try connection.execute(sql) }
        upsert = try connection.prepare("""
            INSERT INTO machines (machine, sequence, state, status, fingerprint, schema_version, last_transition,
                                  waiting_until, change)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (machine) DO UPDATE SET sequence = excluded.sequence, state = excluded.state,
                status = excluded.status, fingerprint = excluded.fingerprint, schema_version = excluded.schema_version,
                last_transition = excluded.last_transition, waiting_until = excluded.waiting_until, change = excluded.change
            WHERE excluded.sequence >= machines.sequence
            """)
        insertSchema = try connection.prepare(
            "INSERT OR IGNORE INTO schemas (fingerprint, schema_version, description) VALUES (?1, ?2, ?3)")
        try connection.rows("SELECT fingerprint FROM schemas") { recorded.insert($0.text(0)) }
        try connection.rows("SELECT COALESCE(MAX(change), 0) FROM machines") { nextChange = $0.int(0) + 1 }
        changeAtBegin = nextChange
        if !existed {
            do {
                refillOnRecord = try fill()
                try connection.execute("COMMIT")
                committed()
            } catch {
                try? connection.execute("ROLLBACK")
                rolledBack()
                throw error
            }
        }
    }

    func finalize() {
        sqlite3_finalize(upsert)
        sqlite3_finalize(insertSchema)
        upsert = nil
        insertSchema = nil
    }

    /// Writes `summary` as the row of `entry`'s machine, in the transaction in progress.
    func write(_ summary: MachineSummary, of entry: JournalEntry) throws(StoreError) {
        let change = nextChange
        nextChange += 1
        try connection.run(upsert) { statement in
            sqlite3_bind_text(statement, 1, entry.machine, -1, transient)
            sqlite3_bind_int64(statement, 2, Int64(bitPattern: entry.sequenceNumber))
            sqlite3_bind_text(statement, 3, summary.state, -1, transient)
            sqlite3_bind_text(statement, 4, summary.status.rawValue, -1, transient)
            sqlite3_bind_text(statement, 5, summary.fingerprint, -1, transient)
            sqlite3_bind_int64(statement, 6, Int64(summary.schemaVersion))
            sqlite3_bind_int64(statement, 7, summary.lastTransition)
            if let until = summary.waitingUntil { sqlite3_bind_int64(statement, 8, until) } else { sqlite3_bind_null(statement, 8) }
            sqlite3_bind_int64(statement, 9, change)
        }
    }

    /// Takes `schema` to write, unless its fingerprint is written or pending, and writes it at
    /// once in a transaction of its own; if that fails, the next commit writes it.
    func record(_ schema: StoredSchema) {
        guard recorded.insert(schema.fingerprint).inserted else { return }
        pendingSchemas.append(schema)
        try? connection.commit([])
        guard refillOnRecord, pendingSchemas.isEmpty else { return }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            _ = try fill()
            try connection.execute("COMMIT")
            committed()
        } catch {
            try? connection.execute("ROLLBACK")
            rolledBack()
        }
    }

    /// Marks `machines` passivated where their newest entry is the one given and they were
    /// running or waiting, in a transaction of its own.
    func markPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            for machine in machines {
                let change = nextChange
                nextChange += 1
                try connection.rows(Self.markPassivated,
                                    [.text(machine.id), .int(Int64(bitPattern: machine.sequenceNumber)), .int(change)]) { _ in }
            }
            try connection.execute("COMMIT")
            committed()
        } catch {
            try? connection.execute("ROLLBACK")
            rolledBack()
        }
    }

    private static let markPassivated = "UPDATE machines SET status = 'passivated', change = ?3 "
        + "WHERE machine = ?1 AND sequence = ?2 AND status IN ('running', 'waiting')"

    /// Writes the schemas taken since the last commit, in the transaction in progress.
    func writePendingSchemas() throws(StoreError) {
        for schema in pendingSchemas {
            try connection.run(insertSchema) { statement in
                sqlite3_bind_text(statement, 1, schema.fingerprint, -1, transient)
                sqlite3_bind_int64(statement, 2, Int64(schema.schemaVersion))
                sqlite3_bind_text(statement, 3, schema.json(), -1, transient)
            }
        }
    }

    func committed() {
        pendingSchemas = []
        changeAtBegin = nextChange
    }

    func rolledBack() {
        nextChange = changeAtBegin
    }

    /// Fills `machines` from the newest completed entry of each machine in the journal.
    /// Writes, in the transaction in progress, each machine's summary from its newest completed
    /// entry in the journal, its state named from the schemas the store describes.
    ///
    /// - Returns: whether it wrote any.
    private func fill() throws(StoreError) -> Bool {
        var schemas: [StoredSchema] = []
        try connection.rows("SELECT description FROM schemas") { row in
            if let schema = StoredSchema(json: row.text(0)) { schemas.append(schema) }
        }
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
        for machine in machines {
            try write(machine.summary, of: JournalEntry(machine: machine.id, sequenceNumber: machine.sequenceNumber, payload: []))
        }
        return !machines.isEmpty
    }
}
