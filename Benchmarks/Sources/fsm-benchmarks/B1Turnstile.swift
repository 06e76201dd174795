@_spi(Benchmarks) import ActorFSM

enum TurnstileState: Hashable, Sendable { case locked, unlocked }
enum TurnstileEvent: Hashable, Sendable { case coin, pass }

/// The B1 turnstile's types: machines numbered from zero.
enum Turnstile: MachineDefinition {
    typealias State = TurnstileState
    typealias Event = TurnstileEvent
    typealias ID = Int
}

/// The baseline: a hand-written nested switch in a plain struct.
struct SwitchTurnstile {
    var state = TurnstileState.locked
    var counter = 0

    mutating func handle(_ event: TurnstileEvent) {
        switch state {
        case .locked:
            switch event {
            case .coin: counter += 1; state = .unlocked
            case .pass: counter += 1; state = .locked
            }
        case .unlocked:
            switch event {
            case .coin: counter += 1; state = .unlocked
            case .pass: counter += 1; state = .locked
            }
        }
    }

    var checksum: Int { counter &+ (state == .locked ? 0 : 1) }
}

/// The baseline actor: the same switch behind an actor method.
actor FloorActor {
    var turnstile = SwitchTurnstile()
    func handle(_ event: TurnstileEvent) { turnstile.handle(event) }
    var checksum: Int { turnstile.checksum }
}

/// An instrument that keeps every default: it hears everything and does nothing.
final class NoOpInstrument: Instrument {}

/// The B1 turnstile: four transitions, each running `tick`.
func turnstileSchema(_ tick: Actions<Turnstile>) throws -> Schema<Turnstile> {
    try Schema<Turnstile>(initial: .locked) {
        define(.locked) {
            when(.coin) | then(.unlocked) | tick
            when(.pass) | then(.locked)   | tick
        }
        define(.unlocked) {
            when(.coin) | then(.unlocked) | tick
            when(.pass) | then(.locked)   | tick
        }
    }
}

/// The B1 turnstile whose actions increment `counter` synchronously.
func turnstileSchema(_ counter: Counter) throws -> Schema<Turnstile> {
    try turnstileSchema(Actions { counter.value += 1 })
}

func turnstileEvents(_ count: Int) -> [TurnstileEvent] {
    var random = LCG()
    return (0..<count).map { _ in random.next() >> 63 == 0 ? .coin : .pass }
}

func benchmarkB1(_ settings: Settings) async throws -> [Measurement] {
    let events = turnstileEvents(settings.b1Events)
    // The stream baseline and post run a tenth of the events: at microseconds per event, the full
    // count would take minutes per repetition. Figures are per event either way.
    let slowEvents = Array(events.prefix(settings.b1StreamEvents))
    let count = Double(events.count)
    let reps = settings.repetitions
    let clock = ContinuousClock()
    var results: [Measurement] = []

    results.append(await measure("B1 switch", unit: "ns/event", repetitions: reps, units: count) {
        var turnstile = SwitchTurnstile()
        let elapsed = clock.measure { for event in events { turnstile.handle(event) } }
        return (elapsed, turnstile.checksum)
    })

    results.append(try await measure("B1 core", unit: "ns/event", repetitions: reps, units: count) {
        let counter = Counter()
        let schema = try turnstileSchema(counter)
        var state = schema.stateID(of: .locked)!
        // Prepared once, as a machine holds its standing predicates.
        let predicates = PredicateContext.none
        let elapsed = try clock.measure { for event in events { state = try schema.step(state, event, predicates, id: 0, data: ()) } }
        return (elapsed, counter.value &+ Int(state))
    })

    results.append(try await measure("B1 send", unit: "ns/event", repetitions: reps, units: count) {
        let counter = Counter()
        let machine = Machine(schema: try turnstileSchema(counter), id: 0)
        let start = clock.now
        for event in events { try await machine.send(event) }
        let elapsed = clock.now - start
        return (elapsed, counter.value &+ (await machine.state == .locked ? 0 : 1))
    })

    // The same sends to a machine with an instrument that does nothing: the cost of the hooks.
    results.append(try await measure("B1 send, no-op instrument", unit: "ns/event", repetitions: reps, units: count) {
        let counter = Counter()
        let machine = Machine(schema: try turnstileSchema(counter), id: 0,
                              configuration: MachineConfiguration(instrument: NoOpInstrument()))
        let start = clock.now
        for event in events { try await machine.send(event) }
        let elapsed = clock.now - start
        return (elapsed, counter.value &+ (await machine.state == .locked ? 0 : 1))
    })

    results.append(await measure("B1 actor-floor", unit: "ns/event", repetitions: reps, units: count) {
        let actor = FloorActor()
        let start = clock.now
        for event in events { await actor.handle(event) }
        return (clock.now - start, await actor.checksum)
    })

    results.append(try await measure("B1 post", unit: "ns/event", repetitions: reps, units: Double(slowEvents.count)) {
        let counter = Counter()
        let machine = Machine(schema: try turnstileSchema(counter), id: 0)
        let start = clock.now
        for event in slowEvents { try await machine.post(event) }
        await machine.shutdown()
        return (clock.now - start, counter.value &+ (await machine.state == .locked ? 0 : 1))
    })

    results.append(await measure("B1 stream-floor", unit: "ns/event", repetitions: reps, units: Double(slowEvents.count)) {
        let (stream, continuation) = AsyncStream.makeStream(of: TurnstileEvent.self)
        let start = clock.now
        let consumer = Task {
            var turnstile = SwitchTurnstile()
            for await event in stream { turnstile.handle(event) }
            return turnstile.checksum
        }
        for event in slowEvents { continuation.yield(event) }
        continuation.finish()
        let checksum = await consumer.value
        return (clock.now - start, checksum)
    })
    return results
}
