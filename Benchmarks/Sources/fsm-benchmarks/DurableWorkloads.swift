import ActorFSM
import ActorFSMDurability

/// The durable workloads B8 and B9 share, on whatever store they are given.
enum DurableWorkloads {
    /// One machine made on `store`, sent `count` events one at a time (after 10 unmeasured
    /// ones), each durable before it returns: its latencies, in µs.
    static func sendLatencies(on store: any MachineStore, named name: String, count: Int) async throws -> Measurement {
        let clock = ContinuousClock()
        let machine = try await Machine(schema: try storedTurnstileSchema(Counter()), id: "single", store: store)
        var latencies: [Double] = []
        for index in 0..<(count + 10) {
            let start = clock.now
            try await machine.send(index % 2 == 0 ? .coin : .pass)
            if index >= 10 { latencies.append((clock.now - start).nanoseconds / 1_000) }
        }
        return Measurement(name: name, unit: "µs/send", samples: latencies,
                           checksum: Int(await machine.state == .locked ? 0 : 1))
    }

    /// A store to run a workload on: how each repetition opens it, and how it is closed.
    struct StoreVariant<Store: MachineStore> {
        let name: String
        let open: () throws -> Store
        let close: (Store) -> Void
    }

    /// `machines` machines on a store each variant opens for each repetition, each sent
    /// `perMachine` events one after another by a task of its own, so that concurrent sends
    /// share commits: durable transitions per second. The variants take turns within each
    /// repetition, so that the host's drift hits them alike.
    static func throughputs<Store: MachineStore>(
        _ variants: [StoreVariant<Store>], machines: Int, perMachine: Int, repetitions: Int
    ) async throws -> [Measurement] {
        var rates: [[Double]] = Array(repeating: [], count: variants.count)
        for _ in 0..<repetitions {
            for (index, variant) in variants.enumerated() {
                let store = try variant.open()
                let elapsed = try await run(on: store, machines: machines, perMachine: perMachine)
                variant.close(store)
                rates[index].append(Double(machines * perMachine) / (elapsed.nanoseconds / 1e9))
            }
        }
        return zip(variants, rates).map { variant, rates in
            let sorted = rates.sorted()
            return Measurement(name: variant.name, unit: "transitions/s", median: sorted[sorted.count / 2], min: sorted.first!,
                               max: sorted.last!, checksum: machines * perMachine)
        }
    }

    /// The same workload on one store.
    static func throughput<Store: MachineStore>(
        named name: String, machines: Int, perMachine: Int, repetitions: Int,
        makeStore: @escaping () throws -> Store, close: @escaping (Store) -> Void
    ) async throws -> Measurement {
        try await throughputs([StoreVariant(name: name, open: makeStore, close: close)], machines: machines,
                              perMachine: perMachine, repetitions: repetitions)[0]
    }

    private static func run(on store: some MachineStore, machines: Int, perMachine: Int) async throws -> Duration {
        let clock = ContinuousClock()
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
        return elapsed
    }
}
