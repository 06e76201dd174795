import ActorFSM

func benchmarkB5(_ settings: Settings) async throws -> [Measurement] {
    let events = turnstileEvents(settings.b5Events)
    let clock = ContinuousClock()
    var results: [Measurement] = []
    for subscribers in [0, 1, 8] {
        results.append(try await measure("B5 post, \(subscribers) subscriber\(subscribers == 1 ? "" : "s")",
                                         unit: "ns/event", repetitions: settings.repetitions,
                                         units: Double(events.count)) {
            let counter = Counter()
            let machine = Machine(schema: try turnstileSchema(counter), id: 0)
            var readers: [Task<Int, Never>] = []
            for _ in 0..<subscribers {
                let stream = await machine.records()
                readers.append(Task {
                    var seen = 0
                    for await record in stream { seen &+= Int(record.sequenceNumber & 1) }
                    return seen
                })
            }
            let start = clock.now
            for event in events { try await machine.post(event) }
            await machine.shutdown()
            var checksum = counter.value
            for reader in readers { checksum &+= await reader.value }
            return (clock.now - start, checksum)
        })
    }
    return results
}

func benchmarkB6(_ settings: Settings) async throws -> [Measurement] {
    let events = turnstileEvents(settings.b6Events)
    let clock = ContinuousClock()
    return [try await measure("B6 send, async action", unit: "ns/event", repetitions: settings.repetitions,
                              units: Double(events.count)) {
        let counter = Counter()
        let schema = try turnstileSchema(Actions { () async in
            await Task.yield()
            counter.value += 1
        })
        let machine = Machine(schema: schema, id: 0)
        let start = clock.now
        for event in events { try await machine.send(event) }
        return (clock.now - start, counter.value)
    }]
}
