import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMPostgres
@_spi(Benchmarks) import ActorFSMSQLite

/// B12: what operators ask of a store of 1,000,000 machines, as `actorfsm`, the inspector and
/// a program ask it: the counts per state, the first page of 100 machines stuck in one state
/// for more than an hour, and the inspector's first listing (any state, longest idle first). The summary rows are filled by SQL in bulk (the queries read the same rows
/// as writes leave); on PostgreSQL the table is then vacuumed and analyzed, as autovacuum
/// does to a table that grew.
func benchmarkB12(_ settings: Settings) async throws -> [Measurement] {
    let machines = 1_000_000
    let folder = try BenchmarkFolder()
    let path = folder.file("inspect.sqlite")
    let store = try SQLiteStore(path: path)
    try await store.execute(InspectionFill.sqlite(machines: machines, now: InspectionFill.now(),
                                                  fingerprint: try CheckedReleases.firstFingerprint()))
    store.close()
    let reader = try SQLiteReader(path: path)
    var results = try await measureQueries(reader, store: "SQLite", machines: machines)
    reader.close()
    let checked = try SQLiteStore(path: path)
    results += try await CheckedReleases.timeChecks(on: checked, store: "SQLite")
    checked.close()

    if let (url, server) = try benchmarkPostgres("B12") {
        defer { server?.stop() }
        let writer = try PostgresStore(url: url, namespace: "b12")
        try await writer.execute(InspectionFill.postgres(machines: machines, now: InspectionFill.now(),
                                                         fingerprint: try CheckedReleases.firstFingerprint()))
        try await writer.execute("VACUUM ANALYZE actorfsm_machines")
        let reader = try PostgresReader(url: url, namespace: "b12")
        results += try await measureQueries(reader, store: "PostgreSQL", machines: machines)
        reader.close()
        results += try await CheckedReleases.timeChecks(on: writer, store: "PostgreSQL")
        writer.close()
    }
    return results + (try await benchmarkB12Purge(settings))
}

/// The counts per state, and a page of stuck machines, each timed on its own.
private func measureQueries(_ store: any StoreInspection, store name: String, machines: Int) async throws -> [Measurement] {
    let clock = ContinuousClock()
    let counts = try await measure("B12 counts per state, \(name), 1M machines", unit: "ms", repetitions: 3, units: 1,
                                   scale: 1_000_000) {
        let start = clock.now
        let counts = try await store.stateCounts()
        return (clock.now - start, counts.reduce(0) { $0 + $1.count })
    }
    let stuck = MachineQuery(state: "paymentPending").olderThan(.seconds(3_600))
    let page = try await measure("B12 page of 100 stuck machines, \(name), 1M machines", unit: "ms", repetitions: 10,
                                 units: 1, scale: 1_000_000) {
        let start = clock.now
        let page = try await store.machines(stuck)
        return (clock.now - start, page.machines.count)
    }
    // The web inspector's first listing on a store of one schema: any state, longest idle first.
    let idle = MachineQuery(limit: 50)
    let listing = try await measure("B12 page of the 50 longest idle machines, any state, \(name), 1M machines", unit: "ms",
                                    repetitions: 10, units: 1, scale: 1_000_000) {
        let start = clock.now
        let page = try await store.machines(idle)
        return (clock.now - start, page.machines.count)
    }
    return [counts, page, listing]
}

/// SQL that fills the summary table with `machines` rows: eight states, the last transitions
/// spread over two days before `now`.
enum InspectionFill {
    static let states = ["placed", "paymentPending", "paid", "shipping", "delivered", "cancelled", "paymentFailed",
                         "paymentExpired"]

    static func now() -> Int64 { SystemWallClock().nanosecondsSince1970() / 1_000_000 }

    private static var stateCase: String {
        "CASE i % 8 " + states.enumerated().map { "WHEN \($0.offset) THEN '\($0.element)'" }.joined(separator: " ") + " END"
    }

    static func sqlite(machines: Int, now: Int64, fingerprint: String = "0123456789abcdef") -> String {
        """
        INSERT INTO machines (machine, sequence, state, status, fingerprint, schema_version, last_transition, waiting_until, change)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(machines))
        SELECT 'o-' || i, 4, \(stateCase), CASE WHEN i % 8 IN (4, 5, 6, 7) THEN 'final' ELSE 'running' END,
               '\(fingerprint)', 1, \(now) - (i * 7919) % 172800000, NULL, i FROM n
        """
    }

    static func postgres(machines: Int, now: Int64, fingerprint: String = "0123456789abcdef") -> String {
        """
        INSERT INTO actorfsm_machines (machine, seq, state, status, fingerprint, schema_version, last_transition,
                                       waiting_until, change)
        SELECT 'o-' || i, 4, \(stateCase), CASE WHEN i % 8 IN (4, 5, 6, 7) THEN 'final' ELSE 'running' END,
               '\(fingerprint)', 1, \(now) - (i::bigint * 7919) % 172800000, NULL, i FROM generate_series(1, \(machines)) AS i
        """
    }
}
