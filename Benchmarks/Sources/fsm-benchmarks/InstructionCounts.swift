@_spi(Benchmarks) import ActorFSM

/// `--count`: B1's and B2's core steps once each, untimed and without awaiting, so that
/// valgrind's callgrind (which cannot follow the benchmarks' async code) counts the
/// instructions they execute, a figure that does not drift with the machine's state:
///
///     valgrind --tool=callgrind --toggle-collect='*countedB2Steps*KF' \
///         Benchmarks/.build/release/fsm-benchmarks --count 200000
///
/// The pattern ends in `KF` so that it matches the function and not its closure or their
/// specializations (each match toggles collection). The count includes building the schema:
/// run two counts of events and divide the difference by the difference of the counts.
/// The loops have the shape of B1 core's and B2 core's.
func countInstructions(events count: Int) throws {
    let b1 = try countedB1Steps(turnstileEvents(count))
    let contexts = b2Contexts()
    let b2 = try countedB2Steps(b2Inputs(count, contexts: contexts), contexts: contexts)
    print("--count: \(count) events each through countedB1Steps (checksum \(b1)) and countedB2Steps (checksum \(b2))")
}

@inline(never)
func countedB1Steps(_ events: [TurnstileEvent]) throws -> Int {
    let counter = Counter()
    let schema = try turnstileSchema(counter)
    var state = schema.stateID(of: .locked)!
    let predicates = PredicateContext.none
    try withoutTiming { for event in events { state = try schema.step(state, event, predicates, id: 0, data: ()) } }
    return counter.value &+ Int(state)
}

@inline(never)
func countedB2Steps(_ inputs: [(B2Event, Int)], contexts: [PredicateContext]) throws -> Int {
    let counter = Counter()
    let schema = try predicateSchema(counter)
    var state = schema.stateID(of: .s0)!
    try withoutTiming { for (event, context) in inputs { state = try schema.step(state, event, contexts[context], id: 0, data: ()) } }
    return counter.value &+ Int(state)
}

/// Runs `body` as `clock.measure` would, in a closure that captures the loop's state.
@inline(never)
private func withoutTiming(_ body: () throws -> Void) rethrows { try body() }
