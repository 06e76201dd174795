import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting

/// A hold that expires an hour after it is armed; most holds are never armed.
enum Hold: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case idle, armed, expired }
    enum Event: String, Codable, Hashable, Sendable { case arm, touch }
    typealias ID = String
}

func holdSchema() throws -> Schema<Hold> {
    try Schema<Hold>(initial: .idle, final: [.expired]) {
        define(.idle) {
            when(.arm) | then(.armed)
            when(.touch) | then(.idle)
        }
        define(.armed) { after(.seconds(3_600)) | then(.expired) }
    }
}

/// B11: a process of three dies holding its third of the machines in one PostgreSQL database
/// (1,000,000 in all, 100,000 of them armed with a timer; a thirtieth of both in quick mode).
/// Measured: how long after the SIGKILL the two survivors hold and have restored every armed
/// machine of the dead one (leases of 2 s), the survivors' own `send` latency meanwhile, that
/// every timer then fires once (the survivors' clocks are moved on by two hours), and the
/// memory of an idle durable machine held in a process.
func benchmarkB11(_ settings: Settings) async throws -> [Measurement] {
    guard let (url, server) = try benchmarkPostgres("B11") else { return [] }
    defer { server?.stop() }
    let machines = settings.quick ? 30_000 : 1_000_000
    let armed = machines / 10
    var (workers, answers) = try startWorkers("--b11-worker", url: url, machines: machines)
    defer { stopWorkers(workers) }
    let ready = try await answers.next(3, "ready")
    let idleBytes = ready.map { Double($0[0]) ?? .nan }
    let survivors = Array(workers[0..<2])
    let clock = ContinuousClock()

    for survivor in survivors { survivor.send("probe 1") }
    let killed = clock.now
    answers.killed.insert(2)
    workers[2].kill()
    let deadArmed = stride(from: 2, to: machines, by: 3).filter { $0 % 10 == 0 }.count
    // Until the survivors have restored every armed machine of the dead one.
    var restored = 0
    while restored < deadArmed {
        try await clock.sleep(for: .milliseconds(20))
        for survivor in survivors { survivor.send("count 1") }
        restored = try await answers.next(2, "count").reduce(0) { $0 + (Int($1[0]) ?? 0) }
    }
    let takeover = clock.now - killed
    for survivor in survivors { survivor.send("unprobe 1") }
    let latencies = try await answers.next(2, "probed").flatMap { numbers($0[0]) }.sorted()

    for survivor in survivors { survivor.send("advance 7200") }
    let fired = try await answers.next(2, "fired").map { (Int($0[0]) ?? 0, Int($0[1]) ?? 0) }
    let once = fired.reduce(0) { $0 + $1.0 }
    let twice = fired.reduce(0) { $0 + $1.1 }
    guard once == armed, twice == 0 else {
        throw BenchmarkFailure("B11: \(once) of \(armed) timers fired, \(twice) of them more than once")
    }
    return [
        Measurement(name: "B11 takeover of a dead process's armed machines", unit: "ms",
                    samples: [takeover.nanoseconds / 1e6], checksum: deadArmed),
        Measurement(name: "B11 survivors' send during takeover, p50", unit: "µs/send",
                    samples: [percentile(50, of: latencies)], checksum: latencies.count),
        Measurement(name: "B11 survivors' send during takeover, p99", unit: "µs/send",
                    samples: [percentile(99, of: latencies)], checksum: latencies.count),
        Measurement(name: "B11 bytes per idle durable machine", unit: "bytes", samples: idleBytes, checksum: machines),
    ]
}

/// One of B11's three processes (`fsm-benchmarks --b11-worker INDEX URL MACHINES`): it makes
/// holds INDEX, INDEX + 3… (arming every tenth), reports the memory of each idle one, and
/// answers the driver's commands, a line each.
func runB11Worker(index: Int, url: String, machines: Int) async throws {
    let store = try PostgresStore(url: url, node: "b11-\(index)", leaseDuration: .seconds(2))
    // Timers wait on a clock the driver moves on; the calendar moves with it.
    let timers = ManualClock()
    let wallClock = ShiftedCalendar(clock: timers)
    let supervisor = try Supervisor(
        schema: try holdSchema(), durability: Durability(store: store, compactionInterval: 0, wallClock: wallClock),
        configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: timers)))
    let mine = stride(from: index, to: machines, by: 3).map { $0 }
    let before = residentBytes()
    let idle = mine.filter { $0 % 10 != 0 }
    try await inParallel(idle, width: 1_000) { number in try await supervisor.activate(id: "h\(number)") }
    let perIdle = Double(residentBytes() - before) / Double(idle.count)
    try await inParallel(mine.filter { $0 % 10 == 0 }, width: 1_000) { number in
        try await supervisor.activate(id: "h\(number)")
        try await supervisor.send(to: "h\(number)", .arm)
    }
    let held = supervisor.count
    ChildProcess.writeLine("ready \(perIdle)")
    let expiries = supervisor.reports()
    var probing: Task<[Int], any Error>?
    for await line in ChildProcess.standardInputLines() {
        switch line.split(separator: " ").first {
        case "probe":
            probing = Task { try await probe(supervisor, idle: idle.map { "h\($0)" }) }
        case "unprobe":
            probing?.cancel()
            let latencies = try await probing?.value ?? []
            ChildProcess.writeLine("probed " + latencies.map(String.init).joined(separator: ","))
        case "count":
            ChildProcess.writeLine("count \(supervisor.count - held)")
        case "advance":
            let armed = supervisor.count - idle.count
            timers.advance(by: .seconds(7_200))
            var seen: Set<String> = []
            var twice = 0
            for await report in expiries where report.record?.origin.timeout != nil {
                if !seen.insert(report.record!.machineID).inserted { twice += 1 }
                if seen.count == armed { break }
            }
            ChildProcess.writeLine("fired \(seen.count) \(twice)")
        default:
            await supervisor.shutdown()
            store.close()
            return
        }
    }
}

/// Sends to `idle` machines of this process, one at a time, until cancelled; the latency of each.
private func probe(_ supervisor: Supervisor<Hold>, idle: [String]) async throws -> [Int] {
    let clock = ContinuousClock()
    var latencies: [Int] = []
    var step = 0
    while !Task.isCancelled {
        let start = clock.now
        try await supervisor.send(to: idle[step * 7 % idle.count], .touch)
        latencies.append(Int((clock.now - start).nanoseconds / 1_000))
        step += 1
    }
    return latencies
}

/// The system's calendar, moved on with a manual clock.
private struct ShiftedCalendar: WallClock {
    let clock: ManualClock
    let start = SystemWallClock().nanosecondsSince1970()

    func nanosecondsSince1970() -> Int64 {
        let offset = clock.now.offset
        return start + offset.components.seconds * 1_000_000_000 + offset.components.attoseconds / 1_000_000_000
    }
}
