import ActorFSM

/// What the runs of ``GeneratedPaths`` fired, and where each run left its path.
struct PathLedger<Definition: MachineDefinition> {
    let schema: Schema<Definition>
    let transitions: [Transition<Definition>]
    /// Per transition, whether a run fired it.
    private(set) var fired: [Bool]
    /// Per transition, why the first run meant to fire it did not.
    private var missed: [UncoveredTransition<Definition>.Reason?]
    /// The transitions by the state they leave and their event id: what identifies a record's.
    private let bySourceAndEvent: [Pair: [Int]]
    var stepsRun = 0

    /// A state and an event, by index and id.
    private struct Pair: Hashable {
        let source: Int
        let event: Int
    }

    init(_ schema: Schema<Definition>, unreachable: [UncoveredTransition<Definition>]) {
        self.schema = schema
        transitions = schema.transitions
        fired = Array(repeating: false, count: transitions.count)
        missed = Array(repeating: nil, count: transitions.count)
        var bySourceAndEvent: [Pair: [Int]] = [:]
        for index in transitions.indices {
            let pair = Pair(source: schema.endpoints(ofTransition: index).source, event: schema.eventID(ofTransition: index))
            bySourceAndEvent[pair, default: []].append(index)
        }
        self.bySourceAndEvent = bySourceAndEvent
        for dead in unreachable { missed[dead.index] = dead.reason }
    }

    /// The transition `record` says fired, if it says one did.
    func transition(of record: TransitionRecord<Definition>) -> Int? {
        guard record.outcome.isTransitioned, let source = schema.stateIndex(of: record.source),
              let target = schema.stateIndex(of: record.target)
        else { return nil }
        let event = record.event.flatMap(schema.eventID(of:)) ?? record.origin.timeout.flatMap(schema.timeoutEventID(of:))
        guard let event else { return nil }
        // Rows written by one statement (a helper, a loop) share a location: their predicates tell them apart.
        return bySourceAndEvent[Pair(source: source, event: event)]?.first {
            schema.endpoints(ofTransition: $0).target == target && transitions[$0].location == record.transitionLocation
                && transitions[$0].predicates.allSatisfy { $0.isMet(by: record.predicates) }
        }
    }

    /// Whether transitions `one` and `other` leave the same state on the same event.
    func sameCell(_ one: Int, _ other: Int) -> Bool {
        schema.endpoints(ofTransition: one).source == schema.endpoints(ofTransition: other).source
            && schema.eventID(ofTransition: one) == schema.eventID(ofTransition: other)
    }

    /// The one transition from `source` to `target`, if exactly one leads there.
    func soleTransition(from source: Definition.State, to target: Definition.State) -> Int? {
        let leading = transitions.indices.filter { transitions[$0].source == source && transitions[$0].target == target }
        return leading.count == 1 ? leading[0] : nil
    }

    /// Notes that transition `index` fired, though no record was read for it.
    mutating func credit(_ index: Int) { fired[index] = true }

    /// Notes the transition `record` fired, if any; returns it.
    @discardableResult
    mutating func credit(_ record: TransitionRecord<Definition>) -> Int? {
        let index = transition(of: record)
        if let index { fired[index] = true }
        return index
    }

    /// Notes that the steps `steps` of a run were not taken, because of `reason`.
    mutating func missed(_ steps: ArraySlice<PathStep<Definition>>, because reason: UncoveredTransition<Definition>.Reason) {
        for step in steps where missed[step.index] == nil { missed[step.index] = reason }
    }

    /// The coverage of `pathsRun` runs.
    func coverage(pathsRun: Int) -> PathCoverage<Definition> {
        var covered: [Transition<Definition>] = []
        var uncovered: [UncoveredTransition<Definition>] = []
        for (index, transition) in transitions.enumerated() {
            if fired[index] {
                covered.append(transition)
            } else {
                let reason = missed[index] ?? .diverged("no run reached it")
                uncovered.append(UncoveredTransition(transition: transition, reason: reason, index: index))
            }
        }
        return PathCoverage(covered: covered, uncovered: uncovered, pathsRun: pathsRun, stepsRun: stepsRun)
    }
}
