import ActorFSM
import ActorFSMPostgres
import ActorFSMTesting
import Foundation

/// B9: durable machines on a PostgreSQL store, in one process, beside a bare commit of an
/// entry's size measured in the same run against the same server. The server is
/// `$FSM_BENCH_POSTGRES_URL` if set, else a temporary cluster started for the run.
func benchmarkB9(_ settings: Settings) async throws -> [Measurement] {
    var server: TemporaryPostgres?
    let url: String
    if let given = ProcessInfo.processInfo.environment["FSM_BENCH_POSTGRES_URL"] {
        url = given
    } else if let reason = TemporaryPostgres.unavailableReason {
        print("B9 skipped: \(reason)")
        return []
    } else {
        let started = try TemporaryPostgres.start()
        server = started
        url = started.url
    }
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
        let machine = try await Machine(schema: try storedTurnstileSchema(Counter()), id: "single", store: store)
        var latencies: [Double] = []
        for index in 0..<(sends + 10) {
            let start = clock.now
            try await machine.send(index % 2 == 0 ? .coin : .pass)
            if index >= 10 { latencies.append((clock.now - start).nanoseconds / 1_000) }
        }
        results.append(Measurement(name: "B9 durable send on PostgreSQL, one machine", unit: "µs/send", samples: latencies,
                                   checksum: Int(await machine.state == .locked ? 0 : 1)))
        store.close()
    }

    // 1,000 machines in this process, each sent events one after another by a task of its own:
    // concurrent sends share commits.
    let machines = 1_000
    let perMachine = settings.quick ? 10 : 50
    let throughput = try await measure("B9 durable transitions on PostgreSQL, 1,000 machines", unit: "transitions/s",
                                       repetitions: settings.quick ? 1 : 3, units: 1) {
        let store = try PostgresStore(url: url)
        let run = RunNumber.next()
        let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()),
                                        durability: Durability(store: store, compactionInterval: 0))
        for id in 0..<machines { try await supervisor.activate(id: "m\(run)-\(id)") }
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<machines {
                group.addTask {
                    for index in 0..<perMachine {
                        try await supervisor.send(to: "m\(run)-\(id)", index % 2 == 0 ? .coin : .pass)
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - start
        await supervisor.shutdown()
        store.close()
        return (elapsed, machines * perMachine)
    }
    results.append(Measurement(name: throughput.name, unit: throughput.unit,
                               median: Double(machines * perMachine) / (throughput.median / 1e9),
                               min: Double(machines * perMachine) / (throughput.max / 1e9),
                               max: Double(machines * perMachine) / (throughput.min / 1e9), checksum: throughput.checksum))
    return results
}
