import ActorFSM
import ActorFSMDurability
import CSQLite

/// One SQLite connection with the store's prepared statements. Used only on the store's
/// thread (and by `SQLiteStore.init` before that thread starts).
final class SQLiteConnection {
    let database: OpaquePointer
    let path: String
    /// The machines' summaries and the schemas: prepared when the connection writes.
    var summaries: SQLiteSummaries?
    private var insert: OpaquePointer?
    private var removeBelow: OpaquePointer?
    private var latest: OpaquePointer?
    private var all: OpaquePointer?
    private var machines: OpaquePointer?
    private var begin: OpaquePointer?
    private var end: OpaquePointer?
    private var rollback: OpaquePointer?
    private var isClosed = false

    /// Opens (creating if need be) the database at `path`, in WAL mode, fsyncing each commit,
    /// its summaries written at most `summaryDelay` after their entries (none, if `nil`: a
    /// journal alone, which benchmarks compare with); or, `readOnly`, opens a store that is
    /// there for reading beside its writer.
    init(path: String, readOnly: Bool = false, summaryDelay: Duration? = .zero) throws(StoreError) {
        let handle = try Self.open(path, flags: readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        database = handle
        self.path = path
        do {
            if readOnly {
                // A reader waits a little for the writer's checkpoint rather than failing.
                sqlite3_busy_timeout(handle, 2_000)
                // Counting a million machines scans their table: mapped, its pages are read
                // without a copy, and a larger cache keeps them between queries.
                try execute("PRAGMA mmap_size = 1073741824")
                try execute("PRAGMA cache_size = -65536")
                try prepareReading()
                return
            }
            // The `actorfsm` command writes operators' requests beside the writer (see
            // `SQLiteRequests`): a commit waits the moment that takes, rather than failing.
            sqlite3_busy_timeout(handle, 5_000)
            // Normal locking, so that readers (the inspection tool) can read beside the one
            // writer that the store's file lock lets in.
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = FULL")
            // A 64 MiB page cache keeps the journal's index in memory for hundreds of thousands of
            // machines; checkpoints every 16 MiB of log rather than 4 MiB spare commits the
            // stall of copying pages back to the database file.
            try execute("PRAGMA cache_size = -65536")
            try execute("PRAGMA wal_autocheckpoint = 4096")
            try execute("""
                CREATE TABLE IF NOT EXISTS journal (
                    machine TEXT NOT NULL, sequence INTEGER NOT NULL, payload BLOB NOT NULL,
                    PRIMARY KEY (machine, sequence)
                ) WITHOUT ROWID
                """)
            insert = try prepare("INSERT OR REPLACE INTO journal (machine, sequence, payload) VALUES (?1, ?2, ?3)")
            removeBelow = try prepare("DELETE FROM journal WHERE machine = ?1 AND sequence < ?2")
            try prepareReading()
            if let summaryDelay { summaries = try SQLiteSummaries(self, delay: summaryDelay) }
            try makeRequestsTable()
            begin = try prepare("BEGIN IMMEDIATE")
            end = try prepare("COMMIT")
            rollback = try prepare("ROLLBACK")
        } catch {
            close()
            throw error
        }
    }

    /// Opens the store at `path`, which must be there, to carry operators' requests only,
    /// beside the process that writes it (see `SQLiteRequests`).
    init(requestsAt path: String) throws(StoreError) {
        let handle = try Self.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        database = handle
        self.path = path
        // The writer's commits hold the write lock for an fsync or so: wait for them.
        sqlite3_busy_timeout(handle, 5_000)
        do throws(StoreError) {
            guard try hasTable("journal") else { throw StoreError("\(path) is not an actorfsm store: it has no journal") }
            try makeRequestsTable()
        } catch {
            close()
            throw error
        }
    }

    /// The database at `path`, opened with `flags`.
    private static func open(_ path: String, flags: Int32) throws(StoreError) -> OpaquePointer {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(opened)"
            sqlite3_close(handle)
            throw StoreError("could not open the store \(path): \(message)")
        }
        return handle
    }

    /// Prepares the statements that read the journal.
    private func prepareReading() throws(StoreError) {
        latest = try prepare("SELECT sequence, payload FROM journal WHERE machine = ?1 ORDER BY sequence DESC LIMIT ?2")
        all = try prepare("SELECT sequence, payload FROM journal WHERE machine = ?1 ORDER BY sequence")
        machines = try prepare("SELECT DISTINCT machine FROM journal ORDER BY machine")
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        summaries?.flush(closing: true)
        summaries?.finalize()
        summaries = nil
        for statement in [insert, removeBelow, latest, all, machines, begin, end, rollback] { sqlite3_finalize(statement) }
        insert = nil
        removeBelow = nil
        latest = nil
        all = nil
        machines = nil
        begin = nil
        end = nil
        rollback = nil
        sqlite3_close_v2(database)
    }

    /// Applies `writes` in one transaction: one commit, one fsync.
    func commit(_ writes: [JournalWrite]) throws(StoreError) {
        guard !isClosed else { throw StoreError("the store \(path) is closed") }
        try run(begin) { _ in }
        do {
            try summaries?.writePendingSchemas()
            for write in writes {
                let entry = write.entry
                try run(insert) { statement in
                    sqlite3_bind_text(statement, 1, entry.machine, -1, transient)
                    sqlite3_bind_int64(statement, 2, Int64(bitPattern: entry.sequenceNumber))
                    entry.payload.withUnsafeBytes { bytes in
                        _ = sqlite3_bind_blob(statement, 3, bytes.baseAddress, Int32(bytes.count), transient)
                    }
                }
                if let summary = write.summary { try summaries?.take(summary, of: entry) }
                if write.removingEntriesBelow > 0 {
                    try run(removeBelow) { statement in
                        sqlite3_bind_text(statement, 1, entry.machine, -1, transient)
                        sqlite3_bind_int64(statement, 2, Int64(bitPattern: write.removingEntriesBelow))
                    }
                }
            }
            try run(end) { _ in }
            summaries?.committed()
        } catch {
            try? run(rollback) { _ in }
            summaries?.rolledBack()
            throw error
        }
    }

    /// The newest `count` entries of `machine`, newest first, or all of them oldest first.
    func entries(of machine: String, newest count: Int?) throws(StoreError) -> [JournalEntry] {
        let statement = count == nil ? all : latest
        var entries: [JournalEntry] = []
        try query(statement) { statement in
            sqlite3_bind_text(statement, 1, machine, -1, transient)
            if let count { sqlite3_bind_int64(statement, 2, Int64(count)) }
        } row: { statement in
            let bytes = Int(sqlite3_column_bytes(statement, 1))
            let payload = bytes == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 1), count: bytes))
            entries.append(JournalEntry(machine: machine, sequenceNumber: UInt64(bitPattern: sqlite3_column_int64(statement, 0)),
                                        payload: payload))
        }
        return entries
    }

    func machineIDs() throws(StoreError) -> [String] {
        var ids: [String] = []
        try query(machines) { _ in } row: { statement in
            ids.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        return ids
    }

    // MARK: - Statements

    func execute(_ sql: String) throws(StoreError) {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    func prepare(_ sql: String) throws(StoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else { throw failure(sql) }
        return statement
    }

    func run(_ statement: OpaquePointer?, bind: (OpaquePointer) -> Void) throws(StoreError) {
        try query(statement, bind: bind) { _ in }
    }

    func query(
        _ statement: OpaquePointer?, bind: (OpaquePointer) -> Void, row: (OpaquePointer) -> Void
    ) throws(StoreError) {
        guard let statement else { throw StoreError("the store \(path) is closed") }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        bind(statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(statement)
            case SQLITE_DONE: return
            default: throw failure(String(cString: sqlite3_sql(statement)))
            }
        }
    }

    func failure(_ sql: String) -> StoreError {
        let code = sqlite3_errcode(database)
        let message = String(cString: sqlite3_errmsg(database))
        let locked = code == SQLITE_BUSY || code == SQLITE_LOCKED
        return StoreError("the store \(path) failed (\(message), SQLite code \(code)) running \(sql)", isLocked: locked)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes, which Swift may move after the call.
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
