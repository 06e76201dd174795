import ActorFSM

func benchmarkB2(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    var results: [Measurement] = []
    results.append(try await measure("B2 build", unit: "ms", repetitions: settings.repetitions, units: 1, scale: 1e6) {
        var schema: Schema<B2State, B2Event>?
        let elapsed = try clock.measure { schema = try predicateSchema(Counter()) }
        return (elapsed, schema!.transitions.count)
    })

    // Every event carries one case of each predicate type: prepared contexts, one per combination.
    let contexts: [PredicateContext] = (0..<1_000).map { (combination: Int) -> PredicateContext in
        let tier: Tier = Tier.allCases[combination % 10]
        let region: Region = Region.allCases[combination / 10 % 10]
        let channel: Channel = Channel.allCases[combination / 100]
        return PredicateContext(tier, region, channel)
    }
    var random = LCG()
    let inputs = (0..<settings.b2Events).map { _ in
        (B2Event.allCases[random.next(below: 10)], random.next(below: contexts.count))
    }
    results.append(try await measure("B2 core", unit: "ns/event", repetitions: settings.repetitions,
                                     units: Double(inputs.count)) {
        let counter = Counter()
        let schema = try predicateSchema(counter)
        var state = schema.stateID(of: .s0)!
        let elapsed = try clock.measure {
            for (event, context) in inputs { state = try schema.step(state, event, contexts[context]) }
        }
        return (elapsed, counter.value &+ Int(state))
    })
    return results
}
