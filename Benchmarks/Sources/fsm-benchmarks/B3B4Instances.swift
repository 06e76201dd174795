import ActorFSM

func benchmarkB3(_ settings: Settings) async throws -> [Measurement] {
    let count = settings.b3Instances
    let clock = ContinuousClock()
    let schema = try turnstileSchema(Counter())

    // Memory first, in a process that has not yet freed memory of this size: once freed, the
    // allocator reuses it and resident memory no longer grows.
    // Machines made directly, without a supervisor, a tenth as many: kept alive until the
    // supervised ones are measured, so that neither count reuses memory the other freed. The
    // figure includes the array's reference to each machine (8 bytes).
    let standaloneCount = Swift.max(1, count / 10)
    let beforeStandalone = residentBytes()
    var standalone: [Machine<Turnstile>]? = (0..<standaloneCount).map { Machine(schema: schema, id: $0) }
    let standaloneBytes = Double(residentBytes() - beforeStandalone) / Double(standaloneCount)
    let standaloneMemory = Measurement(name: "B3 bytes per standalone machine", unit: "bytes", median: standaloneBytes,
                                       min: standaloneBytes, max: standaloneBytes, checksum: standalone!.count)
    let before = residentBytes()
    var supervisor: Supervisor<Turnstile>? = Supervisor(schema: schema)
    for id in 0..<count { try supervisor!.spawn(id: id) }
    let spawned = residentBytes()
    let bytes = Double(spawned - before) / Double(count)
    let live = supervisor!.count
    // What shutting them all down costs in memory, at its peak, over what they hold.
    await supervisor!.shutdown()
    let growth = Double(Swift.max(0, peakResidentBytes() - spawned)) / 1e6
    let remaining = supervisor!.count
    supervisor = nil
    standalone = nil
    let memory = Measurement(name: "B3 bytes per idle instance", unit: "bytes", median: bytes, min: bytes,
                             max: bytes, checksum: live)
    let shutdownMemory = Measurement(name: "B3 shutdown, peak memory growth", unit: "MB", median: growth,
                                     min: growth, max: growth, checksum: remaining)

    let spawn = try await measure("B3 spawn", unit: "ms", repetitions: settings.b3Repetitions, units: 1, scale: 1e6) {
        let supervisor = Supervisor<Turnstile>(schema: schema)
        let elapsed = try clock.measure { for id in 0..<count { try supervisor.spawn(id: id) } }
        return (elapsed, supervisor.count)
    }
    let shutdown = try await measure("B3 shutdown", unit: "ms", repetitions: settings.b3Repetitions, units: 1,
                                     scale: 1e6) {
        let supervisor = Supervisor<Turnstile>(schema: schema)
        for id in 0..<count { try supervisor.spawn(id: id) }
        let start = clock.now
        await supervisor.shutdown()
        return (clock.now - start, supervisor.count)
    }
    return [spawn, memory, standaloneMemory, shutdown, shutdownMemory]
}

/// B4's counters: each sending task counts the actions its sends run (they run in its task, on
/// the send's fast path), so that no two cores ever write one counter.
enum SenderTally {
    @TaskLocal static var counter: Counter?
}

func benchmarkB4(_ settings: Settings) async throws -> [Measurement] {
    let count = settings.b4Instances
    let eventsPerInstance = 10
    let schema = try turnstileSchema(Actions { SenderTally.counter?.value += 1 })
    let events = turnstileEvents(eventsPerInstance)
    let clock = ContinuousClock()
    let variants = Sharding.measuredCombinations(cores: settings.cores).map { tasks, sharding in
        Variant(name: "B4 " + sharding.label(tasks: tasks)) { () async throws -> (Duration, Int) in
            let supervisor = Supervisor<Turnstile>(schema: schema)
            let machines = try (0..<count).map { try supervisor.spawn(id: $0) }
            let start = clock.now
            let actions = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        let counter = Counter()
                        let shard = sharding.indices(of: task, among: tasks, count: machines.count)
                        try await SenderTally.$counter.withValue(counter) {
                            for event in events {
                                for index in shard { try await machines[index].send(event) }
                            }
                        }
                        return counter.value
                    }
                }
                return try await group.reduce(0, +)
            }
            // An action run outside its sender's task (from the inbox) would not be counted.
            precondition(actions == count * eventsPerInstance, "B4 counted \(actions) actions")
            return (clock.now - start, actions)
        }
    }
    // The machines and their floor in turn, so that their speed-ups come from the same minutes.
    return try await measureInTurn(variants + b4FloorVariants(settings, events: events), unit: "ms",
                                   repetitions: settings.repetitions, units: 1, scale: 1e6)
}
