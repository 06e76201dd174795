@_spi(Benchmarks) import ActorFSM

func benchmarkB2(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    var results: [Measurement] = []
    results.append(try await measure("B2 build", unit: "ms", repetitions: settings.repetitions, units: 1, scale: 1e6) {
        var schema: Schema<B2Table>?
        let elapsed = try clock.measure { schema = try predicateSchema(Counter()) }
        return (elapsed, schema!.transitions.count)
    })
    results += try await measureGeneratedPaths(settings)

    let contexts = b2Contexts()
    let inputs = b2Inputs(settings.b2Events, contexts: contexts)
    // The workload's own cost: its next states in one dense table, read as a hand-written
    // program that knew the schema would read them.
    let (nextStates, initial) = try denseNextStates(contexts)
    let eventCount = B2Event.allCases.count
    let tableInputs = inputs.map { (B2Event.allCases.firstIndex(of: $0.0)!, $0.1) }
    results.append(await measure("B2 table-floor", unit: "ns/event", repetitions: settings.repetitions,
                                 units: Double(inputs.count)) {
        var state = initial
        var counter = 0
        let elapsed = clock.measure {
            for (event, context) in tableInputs {
                let next = nextStates[(state &* eventCount &+ event) &* contexts.count &+ context]
                if next >= 0 {
                    counter &+= 1
                    state = Int(next)
                }
            }
        }
        return (elapsed, counter &+ state)
    })

    // The same steps from inputs that all fire, with about as many in cells that depend on
    // predicates: the difference to B2 core is what the events that fire nothing cost, mostly
    // the mispredicted branch on whether one fires.
    let firing = try b2FiringInputs(settings.b2Events, contexts: contexts)
    results.append(try await measure("B2 core, firing inputs", unit: "ns/event", repetitions: settings.repetitions,
                                     units: Double(firing.count)) {
        let counter = Counter()
        let schema = try predicateSchema(counter)
        var state = schema.stateID(of: .s0)!
        let elapsed = try clock.measure {
            for (event, context) in firing { state = try schema.step(state, event, contexts[context], id: 0, data: ()) }
        }
        return (elapsed, counter.value &+ Int(state))
    })
    // B2 core itself is measured in turn with the forms users write.
    return try await benchmarkB2UserForms(settings) + results + benchmarkB2Alternatives(settings)
}

/// B2's prepared contexts, one per combination of the three predicate types' cases.
func b2Contexts() -> [PredicateContext] {
    (0..<1_000).map { (combination: Int) -> PredicateContext in
        let tier: Tier = Tier.allCases[combination % 10]
        let region: Region = Region.allCases[combination / 10 % 10]
        let channel: Channel = Channel.allCases[combination / 100]
        return PredicateContext(tier, region, channel)
    }
}

/// `count` random events, each with the index of a random context: about 31% fire nothing.
func b2Inputs(_ count: Int, contexts: [PredicateContext]) -> [(B2Event, Int)] {
    var random = LCG()
    return (0..<count).map { _ in (B2Event.allCases[random.next(below: 10)], random.next(below: contexts.count)) }
}

/// `count` random inputs that each fire a transition, from B2's initial state on. Each event
/// is drawn as in B2 core, and then contexts until one fires, so the inputs reach cells that
/// depend on predicates about as often as B2 core's do (about a third of them).
func b2FiringInputs(_ count: Int, contexts: [PredicateContext]) throws -> [(B2Event, Int)] {
    let schema = try predicateSchema(Counter())
    var random = LCG()
    var state = B2State.s0
    var inputs: [(B2Event, Int)] = []
    inputs.reserveCapacity(count)
    while inputs.count < count {
        let event = B2Event.allCases[random.next(below: 10)]
        // Every state has a transition for every event that some context fires; the bound
        // only keeps a schema without one from looping forever.
        for _ in 0..<10_000 {
            let context = random.next(below: contexts.count)
            guard let target = schema.resolve(event, in: state, predicates: contexts[context]).firingTransition?.target
            else { continue }
            state = target
            inputs.append((event, context))
            break
        }
    }
    return inputs
}

/// B2's schema as a dense table, and the id of its initial state: for each state id, event and
/// context, in that order, the id of the next state, or -1 where no transition fires. Read from
/// the schema once, before timing. Its ids are the schema's, so it makes the same transitions as
/// B2 core and reports the same checksum.
private func denseNextStates(_ contexts: [PredicateContext]) throws -> (table: [Int8], initial: Int) {
    let schema = try predicateSchema(Counter())
    let stateCount = B2State.allCases.count
    var table = [Int8](repeating: -1, count: stateCount * B2Event.allCases.count * contexts.count)
    for state in B2State.allCases {
        let id = Int(schema.stateID(of: state)!)
        for (event, value) in B2Event.allCases.enumerated() {
            for (context, predicates) in contexts.enumerated() {
                guard let target = schema.resolve(value, in: state, predicates: predicates).firingTransition?.target
                else { continue }
                table[(id * B2Event.allCases.count + event) * contexts.count + context] = Int8(schema.stateID(of: target)!)
            }
        }
    }
    return (table, Int(schema.stateID(of: .s0)!))
}
