import ActorFSM
import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMPostgres
import ActorFSMTesting

/// B9: durable machines on a PostgreSQL store, in one process, beside a bare commit of an
/// entry's size measured in the same run against the same server. The server is
/// `$FSM_BENCH_POSTGRES_URL` if set, else a temporary cluster started for the run.
func benchmarkB9(_ settings: Settings) async throws -> [Measurement] {
    guard let (url, server) = try benchmarkPostgres("B9") else { return [] }
    defer { server?.stop() }
    let clock = ContinuousClock()
    var results: [Measurement] = []
    let sends = settings.quick ? 50 : 300

    // The floor: one autocommitted INSERT of an entry's size (a 60-byte payload), one at a time.
    do {
        let connection = try PostgresConnection(url: url)
        try connection.execute("SET client_min_messages = warning; DROP TABLE IF EXISTS b9_baseline; CREATE TABLE b9_baseline (k bigint PRIMARY KEY, payload bytea NOT NULL)")
        let payload = [UInt8](repeating: 7, count: 60)
        var latencies: [Double] = []
        for index in 0..<(sends + 10) {
            let start = clock.now
            try connection.query("INSERT INTO b9_baseline VALUES ($1, $2)", [.integer(Int64(index)), .binary(payload)])
            if index >= 10 { latencies.append((clock.now - start).nanoseconds / 1_000) }
        }
        connection.close()
        results.append(Measurement(name: "B9 PostgreSQL commit of one entry", unit: "µs", samples: latencies, checksum: sends))
    }

    // One machine, one `send` at a time, each durable before it returns.
    do {
        let store = try PostgresStore(url: url)
        results.append(try await DurableWorkloads.sendLatencies(
            on: store, named: "B9 durable send on PostgreSQL, one machine", count: sends))
        store.close()
    }

    // 1,000 machines in this process: concurrent sends share commits. In turn with summaries
    // written in each commit, and with the journal alone: what keeping them costs.
    results += try await DurableWorkloads.throughputs([
        .init(name: "B9 durable transitions on PostgreSQL, 1,000 machines",
              open: { try PostgresStore(url: url) }, close: { $0.close() }),
        .init(name: "B9 durable transitions on PostgreSQL, 1,000 machines, summaries in each commit",
              open: { try PostgresStore(url: url, summaryDelay: .zero) }, close: { $0.close() }),
        .init(name: "B9 durable transitions on PostgreSQL, 1,000 machines, journal alone",
              open: { try PostgresStore(journalAloneAt: url) }, close: { $0.close() }),
    ], machines: 1_000, perMachine: settings.quick ? 10 : 50, repetitions: settings.quick ? 1 : 5)
    return results
}
