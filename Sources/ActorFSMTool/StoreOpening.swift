import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMSQLite

/// Opens the store a command reads, for reading only.
enum StoreOpening {
    static func open(_ store: String, namespace: String?) throws -> any StoreInspection {
        if isPostgres(store) { return try PostgresReader(url: store, namespace: namespace) }
        if namespace != nil { throw UsageError("--namespace is for PostgreSQL stores; \(store) is read as a SQLite file") }
        return try SQLiteReader(path: store)
    }

    /// Whether `store` is a PostgreSQL URL or connection string rather than a file's path.
    static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgresql://") || store.hasPrefix("postgres://") || store.contains("host=")
            || store.contains("dbname=")
    }
}
