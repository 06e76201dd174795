import ActorFSM

/// B7's turnstile: B1's, with the counter in each machine's data.
enum CountingTurnstile: MachineDefinition {
    typealias State = TurnstileState
    typealias Event = TurnstileEvent
    typealias ID = Int
    struct Data: Sendable { var count = 0 }
}

/// The B7 turnstile: four transitions, each adding one to the machine's data, as users write it.
func countingTurnstileSchema() throws -> Schema<CountingTurnstile> {
    try Schema<CountingTurnstile>(initial: .locked) {
        define(.locked) {
            when(.coin) | then(.unlocked) | { context in context.data.count += 1 }
            when(.pass) | then(.locked)   | { context in context.data.count += 1 }
        }
        define(.unlocked) {
            when(.coin) | then(.unlocked) | { context in context.data.count += 1 }
            when(.pass) | then(.locked)   | { context in context.data.count += 1 }
        }
    }
}

/// B7: B1's `send` with the counter in the machine's data; judged against B1 send in the same run.
func benchmarkB7(_ settings: Settings) async throws -> [Measurement] {
    let events = turnstileEvents(settings.b1Events)
    let clock = ContinuousClock()
    // The same sends to B1's machine whose actions take the context and count in a `Counter`:
    // what reading the context costs, apart from the data.
    let contextAction = try await measure("B7 send, context action", unit: "ns/event", repetitions: settings.repetitions,
                                          units: Double(events.count)) {
        let counter = Counter()
        let machine = Machine(schema: try turnstileSchema(Actions { (_: TransitionContext<Turnstile>) in counter.value += 1 }),
                              id: 0)
        let start = clock.now
        for event in events { try await machine.send(event) }
        let elapsed = clock.now - start
        return (elapsed, counter.value &+ (await machine.state == .locked ? 0 : 1))
    }
    return [contextAction, try await measure("B7 send, counter in data", unit: "ns/event", repetitions: settings.repetitions,
                              units: Double(events.count)) {
        let machine = Machine(schema: try countingTurnstileSchema(), id: 0, data: CountingTurnstile.Data())
        let start = clock.now
        for event in events { try await machine.send(event) }
        let elapsed = clock.now - start
        return (elapsed, await machine.data.count &+ (await machine.state == .locked ? 0 : 1))
    }]
}
