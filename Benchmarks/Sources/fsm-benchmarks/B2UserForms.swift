@_spi(Benchmarks) import ActorFSM

/// B2 in the forms users write, each next to its prepared form, measured in turn:
/// the core step with a context made from predicate values per event, the public `resolve`,
/// and `send` with predicate values against `send` with a prepared context.
func benchmarkB2UserForms(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    let contexts = b2Contexts()
    let inputs = b2Inputs(settings.b2Events, contexts: contexts)
    // The same inputs as values: each context's three predicates, as a caller holds them.
    let values = inputs.map { event, context in (event, b2Values(of: context)) }
    let schema = try predicateSchema(Counter())
    let initial = schema.stateID(of: .s0)!

    var results = try await measureInTurn([
        Variant(name: "B2 core") {
            let counter = Counter()
            let schema = try predicateSchema(counter)
            var state = initial
            let elapsed = try clock.measure {
                for (event, context) in inputs { state = try schema.step(state, event, contexts[context], id: 0, data: ()) }
            }
            return (elapsed, counter.value &+ Int(state))
        },
        Variant(name: "B2 core, contexts per event") {
            let counter = Counter()
            let schema = try predicateSchema(counter)
            var state = initial
            let elapsed = try clock.measure {
                for (event, (tier, region, channel)) in values {
                    state = try schema.step(state, event, PredicateContext(tier, region, channel), id: 0, data: ())
                }
            }
            return (elapsed, counter.value &+ Int(state))
        },
        Variant(name: "B2 resolve") {
            var state = B2State.s0
            var fired = 0
            let elapsed = clock.measure {
                for (event, context) in inputs {
                    if let transition = schema.resolve(event, in: state, predicates: contexts[context]).firingTransition {
                        state = transition.target
                        fired &+= 1
                    }
                }
            }
            return (elapsed, fired &+ Int(schema.stateID(of: state)!))
        },
        Variant(name: "B2 resolve, predicate values") {
            var state = B2State.s0
            var fired = 0
            let elapsed = clock.measure {
                for (event, (tier, region, channel)) in values {
                    if let transition = schema.resolve(event, in: state, predicates: tier, region, channel).firingTransition {
                        state = transition.target
                        fired &+= 1
                    }
                }
            }
            return (elapsed, fired &+ Int(schema.stateID(of: state)!))
        },
    ], unit: "ns/event", repetitions: settings.repetitions, units: Double(inputs.count))

    let sent = Array(inputs.prefix(settings.b2SendEvents))
    let sentValues = Array(values.prefix(settings.b2SendEvents))
    results += try await measureInTurn([
        Variant(name: "B2 send, prepared context") {
            let machine = Machine(schema: schema, id: 0)
            let start = clock.now
            for (event, context) in sent { try await machine.send(event, predicates: contexts[context]) }
            return (clock.now - start, Int(schema.stateID(of: await machine.state)!))
        },
        Variant(name: "B2 send, predicate values") {
            let machine = Machine(schema: schema, id: 0)
            let start = clock.now
            for (event, (tier, region, channel)) in sentValues {
                try await machine.send(event, predicates: tier, region, channel)
            }
            return (clock.now - start, Int(schema.stateID(of: await machine.state)!))
        },
    ], unit: "ns/event", repetitions: settings.repetitions, units: Double(sent.count))
    return results
}

/// The three predicates of B2's context number `index` (see ``b2Contexts()``).
func b2Values(of index: Int) -> (Tier, Region, Channel) {
    (Tier.allCases[index % 10], Region.allCases[index / 10 % 10], Channel.allCases[index / 100])
}
