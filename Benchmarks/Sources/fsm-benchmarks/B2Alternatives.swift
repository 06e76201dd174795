@_spi(Benchmarks) import ActorFSM

/// A payment step whose next state depends on its data: tried in order through `firstOf`, or
/// decided by one conditioned row, the baseline the issue sets.
enum B2Choice: MachineDefinition {
    enum State: Hashable, Sendable { case waiting, retrying, review, failed }
    enum Event: Hashable, Sendable { case declined }
    typealias ID = Int
    typealias Data = Int
}

/// `declined` in every state, through three ordered alternatives: retry while the attempt is
/// below 1/3 of the range, review in the next third, fail otherwise. Each alternative is taken
/// about as often, so a third of the events test one condition, two thirds two.
func alternativesSchema() throws -> Schema<B2Choice> {
    try Schema(initial: .waiting) {
        let declines = SuperState<B2Choice> {
            when(.declined) {
                firstOf {
                    condition { (attempt: Int) in attempt < 341 } | then(.retrying)
                    condition { (attempt: Int) in attempt < 682 } | then(.review)
                    otherwise() | then(.failed)
                }
            }
        }
        define(.waiting, adopts: declines)
        define(.retrying, adopts: declines)
        define(.review, adopts: declines)
        define(.failed, adopts: declines)
    }
}

/// The baseline: the same states and event, one conditioned row per state.
func singleConditionSchema() throws -> Schema<B2Choice> {
    try Schema(initial: .waiting) {
        let declines = SuperState<B2Choice> {
            condition { (attempt: Int) in attempt < 1_024 } | when(.declined) | then(.retrying)
        }
        define(.waiting, adopts: declines)
        define(.retrying, adopts: declines)
        define(.review, adopts: declines)
        define(.failed, adopts: declines)
    }
}

/// Dispatch through ordered alternatives beside one conditioned row, in the core step and
/// through `send` (whose data is the machine's own, changed by no action here).
func benchmarkB2Alternatives(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    var random = LCG()
    let attempts = (0..<settings.b2Events).map { _ in random.next(below: 1_023) }
    let ordered = try alternativesSchema()
    let single = try singleConditionSchema()
    // The same attempts, each below a third of the range: the first alternative always fires.
    let firstOnly = attempts.map { $0 % 341 }
    func core(_ schema: Schema<B2Choice>, _ attempts: [Int]) throws -> (Duration, Int) {
        var state = schema.stateID(of: .waiting)!
        var fired = 0
        let elapsed = try clock.measure {
            for attempt in attempts {
                let next = try schema.step(state, .declined, .none, id: 0, data: attempt)
                fired &+= Int(next)
                state = next
            }
        }
        return (elapsed, fired)
    }
    var results = try await measureInTurn([
        Variant(name: "B2 firstOf core, 3 alternatives") { try core(ordered, attempts) },
        Variant(name: "B2 firstOf core, the first fires") { try core(ordered, firstOnly) },
        Variant(name: "B2 condition core, 1 row") { try core(single, attempts) },
    ], unit: "ns/event", repetitions: settings.repetitions, units: Double(attempts.count))
    // Through a machine, each send's data is set by the one before: every third machine's data
    // takes each alternative, so the sends alternate over all three.
    let sends = settings.b2SendEvents
    func send(_ schema: Schema<B2Choice>) async throws -> (Duration, Int) {
        let machines = [0, 400, 800].map { Machine(schema: schema, id: $0, data: $0) }
        let start = clock.now
        for index in 0..<sends { try await machines[index % 3].send(.declined) }
        let elapsed = clock.now - start
        var states = 0
        for machine in machines { states &+= schema.stateID(of: await machine.state).map(Int.init) ?? 0 }
        return (elapsed, states)
    }
    results += try await measureInTurn([
        Variant(name: "B2 firstOf send, 3 alternatives") { try await send(ordered) },
        Variant(name: "B2 condition send, 1 row") { try await send(single) },
    ], unit: "ns/event", repetitions: settings.repetitions, units: Double(sends))
    return results
}
