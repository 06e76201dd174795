import ActorFSM
import ActorFSMDurability
import CSQLite

/// The machines' summaries and the schemas' descriptions of a SQLite store. Used only on the
/// store's thread.
///
/// `machines` holds a row per machine (its newest state, status, schema and times), indexed
/// by state; its rows are stored in the order of their change numbers, which are their rowids,
/// so that listing changes needs no index of its own. `schemas` holds each schema's
/// description as JSON.
///
/// With a delay, a summary is kept in memory, newest per machine, and written at most `delay`
/// after its entry's commit, in a transaction that waits for no fsync of its own (the next
/// journal commit's fsync covers it): a machine that moves many times within the delay costs
/// one row write. A row is never newer than the journal, since it is written after its entry's
/// commit. While summaries wait, the store's `summary_flags` table says so; an open after a
/// crash then rewrites every row that lags its machine's journal before anything reads it.
final class SQLiteSummaries {
    unowned let connection: SQLiteConnection
    /// How long a summary may wait after its entry's commit; zero writes it in that commit.
    let delay: Duration
    private var upsert: OpaquePointer?
    private var insertSchema: OpaquePointer?
    /// The change number the next summary gets.
    var nextChange: Int64 = 1
    /// The next change number when the transaction in progress began.
    private var changeAtBegin: Int64 = 1
    /// Schemas to write with the next commit.
    private var pendingSchemas: [StoredSchema] = []
    /// Fingerprints written or pending.
    private var recorded: Set<String> = []
    /// Whether rows were filled from the journal at this open: a schema recorded later names
    /// their states and says which are final, so they are filled again then.
    private var refillOnRecord = false
    /// The summaries of committed entries that wait to be written, newest per machine, each
    /// with its place in the order of the commits.
    private var waiting: [String: (summary: WaitingSummary, order: Int)] = [:]
    private var commitsOfWaiting = 0
    /// Summaries taken in the transaction in progress, which wait once it commits.
    private var taken: [WaitingSummary] = []
    /// Summaries written in the transaction in progress, which stop waiting once it commits.
    private var writing: [WaitingSummary] = []
    /// Whether the store's flag says that summaries may lag the journal (committed, or set in
    /// the transaction in progress).
    private var isFlagged = false
    private var flagSetInTransaction = false

    /// A summary and its entry.
    struct WaitingSummary {
        let machine: String
        let sequenceNumber: UInt64
        let summary: MachineSummary
    }

    static let tables = [
        """
        CREATE TABLE IF NOT EXISTS machines (
            change INTEGER PRIMARY KEY, machine TEXT NOT NULL UNIQUE, sequence INTEGER NOT NULL, state TEXT NOT NULL,
            status TEXT NOT NULL, fingerprint TEXT NOT NULL, schema_version INTEGER NOT NULL,
            last_transition INTEGER NOT NULL, waiting_until INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS machines_by_state ON machines (state, fingerprint, last_transition)",
        "CREATE TABLE IF NOT EXISTS summary_flags (name TEXT NOT NULL PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
        """
        CREATE TABLE IF NOT EXISTS schemas (
            fingerprint TEXT NOT NULL PRIMARY KEY, schema_version INTEGER NOT NULL, description TEXT NOT NULL
        ) WITHOUT ROWID
        """,
    ]

    /// Makes the tables if need be, fills `machines` from the journal of a store written
    /// before it existed, and brings up to date the rows of a store whose summaries were left
    /// waiting by a crash.
    init(_ connection: SQLiteConnection, delay: Duration) throws(StoreError) {
        self.connection = connection
        self.delay = delay
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
        } else if connection.summariesLag() {
            try catchUp()
        }
    }

    func finalize() {
        sqlite3_finalize(upsert)
        sqlite3_finalize(insertSchema)
        upsert = nil
        insertSchema = nil
    }

    /// Takes `summary`, the summary of `entry`, which the transaction in progress journals:
    /// writes it in that transaction without a delay, or keeps it to write within the delay
    /// once the transaction commits.
    func take(_ summary: MachineSummary, of entry: JournalEntry) throws(StoreError) {
        guard delay > .zero else { return try write(summary, of: entry) }
        if !isFlagged {
            try connection.execute("INSERT OR REPLACE INTO summary_flags (name, value) VALUES ('lagging', 1)")
            isFlagged = true
            flagSetInTransaction = true
        }
        taken.append(WaitingSummary(machine: entry.machine, sequenceNumber: entry.sequenceNumber, summary: summary))
    }

    /// Writes every waiting summary in the transaction in progress, in the order of their
    /// entries' commits: their change numbers follow it.
    func writeWaiting() throws(StoreError) {
        for summary in waiting.values.sorted(by: { $0.order < $1.order }).map(\.summary) {
            try write(summary.summary, of: JournalEntry(machine: summary.machine, sequenceNumber: summary.sequenceNumber, payload: []))
            writing.append(summary)
        }
    }

    /// Writes the waiting summaries in a transaction of their own that does not wait for an
    /// fsync, and, `closing`, clears the flag in it, fsynced: the rows are then up to date. If
    /// it fails, they keep waiting, and the error is returned.
    @discardableResult
    func flush(closing: Bool = false) -> StoreError? {
        guard !waiting.isEmpty || (closing && isFlagged) else { return nil }
        // Set outside the transaction, and back before any journal commit, however this ends.
        if !closing { try? connection.execute("PRAGMA synchronous = NORMAL") }
        defer { if !closing { try? connection.execute("PRAGMA synchronous = FULL") } }
        do throws(StoreError) {
            try inTransaction { () throws(StoreError) in
                try writeWaiting()
                if closing { try connection.execute("DELETE FROM summary_flags WHERE name = 'lagging'") }
            }
            if closing { isFlagged = false }
            return nil
        } catch {
            return error
        }
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
        try? inTransaction { () throws(StoreError) in _ = try fill() }
    }

    /// Marks `machines` passivated where their newest entry is the one given and they were
    /// running or waiting, in a transaction of its own.
    func markPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        try? inTransaction { () throws(StoreError) in
            // A summary still waiting would otherwise overwrite the mark.
            try writeWaiting()
            for machine in machines {
                let change = nextChange
                nextChange += 1
                try connection.rows(Self.markPassivated,
                                    [.text(machine.id), .int(Int64(bitPattern: machine.sequenceNumber)), .int(change)]) { _ in }
            }
        }
    }

    /// Runs `body` in a transaction of its own, and keeps the change numbers and the waiting
    /// summaries in step with whether it commits.
    func inTransaction(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        do throws(StoreError) {
            try connection.execute("BEGIN IMMEDIATE")
            try body()
            try connection.execute("COMMIT")
            committed()
        } catch {
            try? connection.execute("ROLLBACK")
            rolledBack()
            throw error
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
        for summary in writing where waiting[summary.machine]?.summary.sequenceNumber == summary.sequenceNumber {
            waiting[summary.machine] = nil
        }
        for summary in taken where summary.sequenceNumber >= waiting[summary.machine]?.summary.sequenceNumber ?? 0 {
            commitsOfWaiting += 1
            waiting[summary.machine] = (summary, commitsOfWaiting)
        }
        writing = []
        taken = []
        flagSetInTransaction = false
    }

    func rolledBack() {
        nextChange = changeAtBegin
        writing = []
        taken = []
        if flagSetInTransaction { isFlagged = false }
        flagSetInTransaction = false
    }
}
