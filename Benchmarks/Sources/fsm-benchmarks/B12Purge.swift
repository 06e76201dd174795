import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMSQLite

/// B12, retention: `purge(_:)` as an operator's program calls it, on a SQLite store whose
/// final machines (four entries each) ended forty days ago. Each repetition fills a new file by
/// SQL in bulk and times the purge alone; the second row is the longest batch of each purge,
/// which the batches keep under `purgeBatchTarget`.
func benchmarkB12Purge(_ settings: Settings) async throws -> [Measurement] {
    let machines = settings.quick ? 10_000 : 100_000
    var longest: [Duration] = []
    let purge = try await measure("B12 purge, SQLite, \(machines / 1_000)k final machines of 4 entries", unit: "µs/machine",
                                  repetitions: 3, units: Double(machines), scale: 1_000) {
        let folder = try BenchmarkFolder()
        let store = try SQLiteStore(path: folder.file("purge.sqlite"))
        defer { store.close() }
        try await store.execute(PurgeFill.sqlite(machines: machines, endedBefore: InspectionFill.now() - 40 * 86_400_000))
        let start = ContinuousClock.now
        let report = try await store.purge(MachineQuery().olderThan(.seconds(30 * 86_400)))
        let elapsed = ContinuousClock.now - start
        longest.append(report.longestBatch)
        return (elapsed, report.purged)
    }
    let batch = Measurement(name: "B12 purge's longest batch, SQLite (target ≤ 50 ms)", unit: "ms",
                            samples: longest.map { $0.nanoseconds / 1_000_000 }, checksum: longest.count)
    return [purge, batch]
}

/// SQL that fills a SQLite store with final machines and their journals.
enum PurgeFill {
    static func sqlite(machines: Int, endedBefore time: Int64) -> String {
        """
        INSERT INTO machines (machine, sequence, state, status, fingerprint, schema_version, last_transition, waiting_until, change)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(machines))
        SELECT 'p-' || i, 3, 'delivered', 'final', '0123456789abcdef', 1, \(time) - i, NULL, i FROM n;
        INSERT INTO journal (machine, sequence, payload)
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(machines * 4 - 1))
        SELECT 'p-' || (i / 4 + 1), i % 4, zeroblob(64) FROM n;
        """
    }
}
