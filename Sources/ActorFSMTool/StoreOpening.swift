import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMSQLite
import Foundation

/// Opens the store a command reads, for reading only.
enum StoreOpening {
    static func open(_ store: String, namespace: String?) throws -> any StoreInspection {
        if isPostgres(store) { return try PostgresReader(url: store, namespace: namespace) }
        if namespace != nil { throw UsageError("--namespace is for PostgreSQL stores; \(store) is read as a SQLite file") }
        return try SQLiteReader(path: store)
    }

    /// Opens the store a command changes, as a writer: a SQLite file whose lock no other
    /// process holds, or a PostgreSQL database (as one more process sharing it, writing each
    /// summary in its entry's commit). Call it once the store was read as an actorfsm store:
    /// a writer makes the tables it lacks.
    static func openForWriting(_ store: String, namespace: String?) throws -> WritableStore {
        if isPostgres(store) {
            let postgres = try PostgresStore(url: store, namespace: namespace, summaryDelay: .zero)
            return WritableStore(store: postgres, close: postgres.close)
        }
        if namespace != nil { throw UsageError("--namespace is for PostgreSQL stores; \(store) is read as a SQLite file") }
        guard FileManager.default.fileExists(atPath: store) else { throw StoreError("no store at \(store)") }
        let sqlite = try SQLiteStore(path: store)
        return WritableStore(store: sqlite, close: sqlite.close)
    }

    /// Whether `store` is a PostgreSQL URL or connection string rather than a file's path.
    static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgresql://") || store.hasPrefix("postgres://") || store.contains("host=")
            || store.contains("dbname=")
    }
}

/// A store opened to be changed, and how to close it.
struct WritableStore {
    let store: any MachinePurging & MachineStore
    let close: () -> Void
}
