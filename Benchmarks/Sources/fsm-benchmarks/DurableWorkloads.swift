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

    /// `machines` machines on a store `makeStore` opens for each repetition (and `close` closes),
    /// each sent `perMachine` events one after another by a task of its own, so that concurrent
    /// sends share commits: durable transitions per second.
    static func throughput<Store: MachineStore>(
        named name: String, machines: Int, perMachine: Int, repetitions: Int,
        makeStore: () throws -> Store, close: (Store) -> Void
    ) async throws -> Measurement {
        let clock = ContinuousClock()
        let measured = try await measure(name, unit: "transitions/s", repetitions: repetitions, units: 1) {
            let store = try makeStore()
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
            close(store)
            return (elapsed, machines * perMachine)
        }
        // `measure` reports time per unit; these report the rate.
        let transitions = Double(machines * perMachine)
        return Measurement(name: measured.name, unit: measured.unit, median: transitions / (measured.median / 1e9),
                           min: transitions / (measured.max / 1e9), max: transitions / (measured.min / 1e9),
                           checksum: measured.checksum)
    }
}
