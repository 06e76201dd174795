import ActorFSMDurability
import CSQLite

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case text(String)
    case int(Int64)
}

/// The current row of a statement being stepped.
struct SQLiteRow {
    let statement: OpaquePointer

    func text(_ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    func int(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func optionalInt(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

extension SQLiteConnection {
    /// Runs `sql` once with `values` bound to `?1`, `?2`…, calling `row` for each row.
    func rows(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) throws(StoreError) -> Void) throws(StoreError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            switch value {
            case .text(let text): sqlite3_bind_text(statement, Int32(index + 1), text, -1, transient)
            case .int(let number): sqlite3_bind_int64(statement, Int32(index + 1), number)
            }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try row(SQLiteRow(statement: statement))
            case SQLITE_DONE: return
            default: throw failure(sql)
            }
        }
    }

    /// Whether the database has a table called `name`.
    func hasTable(_ name: String) throws(StoreError) -> Bool {
        var found = false
        try rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [.text(name)]) { _ in found = true }
        return found
    }

    /// Whether the store's flag says that summaries may lag the journal: a writer has them
    /// waiting, or one ended without closing the store.
    func summariesLag() -> Bool {
        var flagged = false
        try? rows("SELECT value FROM summary_flags WHERE name = 'lagging'") { flagged = $0.int(0) != 0 }
        return flagged
    }
}
