import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// B10: durable machines shared by three processes of this program through one PostgreSQL
/// database (`$FSM_BENCH_POSTGRES_URL`, else a temporary cluster), each holding a third of
/// them. Measured in the same run: each process driving its own machines at once (group
/// commit), one `send` at a time to a machine another process holds (forwarded through the
/// database) beside one at a time to a machine of the sender's own, forwarded sends from the
/// three at once (100 and 1,000 in flight), and creations of new machines.
func benchmarkB10(_ settings: Settings) async throws -> [Measurement] {
    guard let (url, server) = try benchmarkPostgres("B10") else { return [] }
    defer { server?.stop() }
    let machines = settings.quick ? 3_000 : 10_000
    let perMachine = settings.quick ? 5 : 20
    let sends = settings.quick ? 50 : 500
    var (workers, answers) = try startWorkers("--b10-worker", url: url, machines: machines)
    defer { stopWorkers(workers) }
    _ = try await answers.next(3, "ready")
    var results: [Measurement] = []

    var rates: [Double] = []
    var checksum = 0
    for _ in 0..<(settings.quick ? 1 : 3) {
        for worker in workers { worker.send("drive \(perMachine)") }
        let driven = try await answers.next(3, "driven")
        let transitions = driven.reduce(0) { $0 + (Int($1[0]) ?? 0) }
        let slowest = driven.map { Double($0[1]) ?? .infinity }.max()!
        rates.append(Double(transitions) / (slowest / 1e9))
        checksum &+= transitions
    }
    results.append(Measurement(name: "B10 durable transitions, 3 processes", unit: "transitions/s", samples: rates,
                               checksum: checksum))

    for (command, name) in [("remote", "B10 cross-process send"), ("local", "B10 same-process send")] {
        workers[0].send("\(command) \(sends)")
        let latencies = numbers(try await answers.next(1, command)[0][0])
        results.append(Measurement(name: name, unit: "µs/send", samples: latencies, checksum: latencies.count))
    }
    results += try await measureForwardedSends(workers, &answers, perWorker: settings.quick ? 1_500 : 10_000)
    results += try await measureCreations(workers, &answers, perWorker: settings.quick ? 6_000 : 30_000)
    return results
}

/// Forwarded sends from all three processes at once, 100 and then 1,000 in flight in all: the
/// latency of each (median and 99th percentile) and the throughput, across the three.
private func measureForwardedSends(
    _ workers: [ChildProcess], _ answers: inout WorkerAnswers, perWorker: Int
) async throws -> [Measurement] {
    var results: [Measurement] = []
    for inFlight in [100, 1_000] {
        for worker in workers { worker.send("burst \(perWorker) \((inFlight + 2) / 3)") }
        let bursts = try await answers.next(3, "burst")
        let slowest = bursts.map { Double($0[0]) ?? .infinity }.max()!
        let latencies = bursts.flatMap { numbers($0[1]) }.sorted()
        let count = inFlight == 1_000 ? "1,000" : "\(inFlight)"
        let label = "B10 forwarded send, \(count) in flight"
        results.append(Measurement(name: label + ", p50", unit: "µs/send", samples: [percentile(50, of: latencies)],
                                   checksum: latencies.count))
        results.append(Measurement(name: label + ", p99", unit: "µs/send", samples: [percentile(99, of: latencies)],
                                   checksum: latencies.count))
        results.append(Measurement(name: "B10 forwarded sends, \(count) in flight", unit: "sends/s",
                                   samples: [Double(latencies.count) / (slowest / 1e9)], checksum: latencies.count))
    }
    return results
}

/// New durable machines made with `activate(id:data:)`, 1,000 at a time: by one process alone,
/// then by the three at once (the slowest's rate).
private func measureCreations(
    _ workers: [ChildProcess], _ answers: inout WorkerAnswers, perWorker: Int
) async throws -> [Measurement] {
    workers[0].send("create \(perWorker) 1000")
    let alone = try await answers.next(1, "created")[0]
    for worker in workers { worker.send("create \(perWorker) 1000") }
    let together = try await answers.next(3, "created")
    let rate = { (fields: [String]) in (Double(fields[0]) ?? 0) / ((Double(fields[1]) ?? .infinity) / 1e9) }
    return [
        Measurement(name: "B10 creations, one process", unit: "machines/s", samples: [rate(alone)], checksum: perWorker),
        Measurement(name: "B10 creations, each of 3 processes", unit: "machines/s",
                    samples: [together.map(rate).min()!], checksum: 3 * perWorker),
    ]
}

/// The `p`th percentile of `sorted` (nearest rank).
func percentile(_ p: Int, of sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, max(0, (sorted.count * p + 99) / 100 - 1))]
}

/// The numbers of a comma-separated field.
func numbers(_ field: String) -> [Double] {
    field.split(separator: ",").compactMap { Double($0) }
}

/// Starts three workers of this program (`fsm-benchmarks FLAG INDEX URL MACHINES`), and the
/// reader of their answers.
func startWorkers(_ flag: String, url: String, machines: Int) throws -> ([ChildProcess], WorkerAnswers) {
    let (lines, output) = AsyncStream<(Int, String?)>.makeStream()
    let workers = try (0..<3).map { index in
        try ChildProcess(arguments: [ChildProcess.currentExecutable, flag, "\(index)", url, "\(machines)"]) { line in
            output.yield((index, line))
        }
    }
    return (workers, WorkerAnswers(lines: lines.makeAsyncIterator()))
}

/// Tells the workers to quit, and waits for them.
func stopWorkers(_ workers: [ChildProcess]) {
    for worker in workers { worker.send("quit") }
    for worker in workers { worker.wait() }
}

/// The answers of B10's and B11's workers, read in turn.
struct WorkerAnswers {
    var lines: AsyncStream<(Int, String?)>.AsyncIterator
    /// Workers the benchmark killed: their end is expected.
    var killed: Set<Int> = []

    /// The fields of the next `count` lines that start with `word`.
    mutating func next(_ count: Int, _ word: String) async throws -> [[String]] {
        var found: [[String]] = []
        while found.count < count {
            guard let (worker, line) = await lines.next() else {
                throw BenchmarkFailure("the workers ended before answering \(word)")
            }
            guard let line else {
                if killed.contains(worker) { continue }
                throw BenchmarkFailure("worker \(worker) ended before answering \(word)")
            }
            let fields = line.split(separator: " ").map(String.init)
            guard fields.first == word else {
                print("worker \(worker): \(line)")
                continue
            }
            found.append(Array(fields.dropFirst()))
        }
        return found
    }
}

/// One of B10's three worker processes (`fsm-benchmarks --b10-worker INDEX URL MACHINES`): it
/// makes machines INDEX, INDEX + 3… and answers the driver's commands, a line each.
func runB10Worker(index: Int, url: String, machines: Int) async throws {
    let store = try PostgresStore(url: url, node: "b10-\(index)-\(getpid())")
    let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()),
                                    durability: Durability(store: store, compactionInterval: 0))
    let mine = stride(from: index, to: machines, by: 3).map { "m\($0)" }
    let others = (0..<machines).filter { $0 % 3 != index }.map { "m\($0)" }
    try await inParallel(mine, width: 64) { id in try await supervisor.activate(id: id) }
    ChildProcess.writeLine("ready")
    let clock = ContinuousClock()
    var created = 0
    for await line in ChildProcess.standardInputLines() {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2, let count = Int(words[1]) else { break }
        let width = words.count > 2 ? Int(words[2]) ?? 64 : 64
        switch words[0] {
        case "drive":
            let start = clock.now
            try await inParallel(mine, width: mine.count) { id in
                for step in 0..<count { try await supervisor.send(to: id, step % 2 == 0 ? .coin : .pass) }
            }
            ChildProcess.writeLine("driven \(mine.count * count) \(Int((clock.now - start).nanoseconds))")
        case "remote", "local":
            let targets = words[0] == "remote" ? others : mine
            var latencies: [Int] = []
            for step in 0..<count {
                let start = clock.now
                try await supervisor.send(to: targets[step * 7 % targets.count], .coin)
                latencies.append(Int((clock.now - start).nanoseconds / 1_000))
            }
            ChildProcess.writeLine("\(words[0]) " + latencies.map(String.init).joined(separator: ","))
        case "burst":
            let latencies = SharedSamples()
            let start = clock.now
            try await inParallel(Array(0..<count), width: width) { step in
                let sent = clock.now
                try await supervisor.send(to: others[(step * 13 + index * 7) % others.count], .coin)
                let elapsed = Int((clock.now - sent).nanoseconds / 1_000)
                latencies.append(elapsed)
            }
            let all = latencies.all.map(String.init).joined(separator: ",")
            ChildProcess.writeLine("burst \(Int((clock.now - start).nanoseconds)) \(all)")
        case "create":
            let ids = (0..<count).map { "n\(index)-\(created + $0)" }
            created += count
            let start = clock.now
            try await inParallel(ids, width: width) { id in try await supervisor.activate(id: id) }
            ChildProcess.writeLine("created \(count) \(Int((clock.now - start).nanoseconds))")
        default:
            break
        }
    }
    await supervisor.shutdown()
    store.close()
}

/// Runs `body` for each of `items`, at most `width` at a time.
func inParallel<Item: Sendable>(
    _ items: [Item], width: Int, _ body: @escaping @Sendable (Item) async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, item) in items.enumerated() {
            if index >= width { try await group.next() }
            group.addTask { try await body(item) }
        }
        try await group.waitForAll()
    }
}

/// The server the PostgreSQL workloads run against: `$FSM_BENCH_POSTGRES_URL` if set, else a
/// temporary cluster (returned, to stop); `nil` if neither is possible.
func benchmarkPostgres(_ workload: String) throws -> (url: String, server: TemporaryPostgres?)? {
    if let given = getenv("FSM_BENCH_POSTGRES_URL") {
        return (String(cString: given), nil)
    }
    if let reason = TemporaryPostgres.unavailableReason {
        print("\(workload) skipped: \(reason)")
        return nil
    }
    let server = try TemporaryPostgres.start()
    return (server.url, server)
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
