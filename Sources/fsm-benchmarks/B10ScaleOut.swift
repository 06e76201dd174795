import ActorFSM
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
/// database) beside one at a time to a machine of the sender's own, and concurrent forwarded
/// sends.
func benchmarkB10(_ settings: Settings) async throws -> [Measurement] {
    guard let (url, server) = try benchmarkPostgres("B10") else { return [] }
    defer { server?.stop() }
    let machines = settings.quick ? 3_000 : 10_000
    let perMachine = settings.quick ? 5 : 20
    let sends = settings.quick ? 50 : 500
    let (lines, output) = AsyncStream<(Int, String?)>.makeStream()
    let workers = try (0..<3).map { index in
        try ChildProcess(arguments: [ChildProcess.currentExecutable, "--b10-worker", "\(index)", url, "\(machines)"]) { line in
            output.yield((index, line))
        }
    }
    defer {
        for worker in workers { worker.send("quit") }
        for worker in workers { worker.wait() }
    }
    var answers = WorkerAnswers(lines: lines.makeAsyncIterator())
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
        let latencies = try await answers.next(1, command)[0].compactMap { Double($0) }
        results.append(Measurement(name: name, unit: "µs/send", samples: latencies, checksum: latencies.count))
    }

    workers[0].send("forward \(sends * 4)")
    let forwarded = try await answers.next(1, "forwarded")[0]
    let count = Double(forwarded[0]) ?? 0
    results.append(Measurement(name: "B10 forwarded sends, 64 at a time", unit: "sends/s",
                               samples: [count / ((Double(forwarded[1]) ?? .infinity) / 1e9)], checksum: Int(count)))
    return results
}

/// The answers of B10's workers, read in turn.
private struct WorkerAnswers {
    var lines: AsyncStream<(Int, String?)>.AsyncIterator

    /// The fields of the next `count` lines that start with `word`.
    mutating func next(_ count: Int, _ word: String) async throws -> [[String]] {
        var found: [[String]] = []
        while found.count < count {
            guard let (worker, line) = await lines.next(), let line else {
                throw BenchmarkFailure("a B10 worker ended before answering \(word)")
            }
            let fields = line.split(separator: " ").map(String.init)
            guard fields.first == word else {
                print("B10 worker \(worker): \(line)")
                continue
            }
            found.append(fields.count > 1 && fields[1].contains(",")
                         ? fields[1].split(separator: ",").map(String.init) : Array(fields.dropFirst()))
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
    for await line in ChildProcess.standardInputLines() {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 2, let count = Int(words[1]) else { break }
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
        case "forward":
            let start = clock.now
            try await inParallel(Array(0..<count), width: 64) { step in
                try await supervisor.send(to: others[step * 13 % others.count], .coin)
            }
            ChildProcess.writeLine("forwarded \(count) \(Int((clock.now - start).nanoseconds))")
        default:
            break
        }
    }
    await supervisor.shutdown()
    store.close()
}

/// Runs `body` for each of `items`, at most `width` at a time.
private func inParallel<Item: Sendable>(
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
