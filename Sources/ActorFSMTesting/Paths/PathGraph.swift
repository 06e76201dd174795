import ActorFSM

/// A schema's states and transitions as a graph for ``GeneratedPaths``: which transitions an
/// event can fire, from which state to which, and the shortest ways to each state.
struct PathGraph<Definition: MachineDefinition> {
    let transitions: [Transition<Definition>]
    /// Per transition, how to fire it, or `nil` for a row no context selects.
    let triggers: [TransitionTrigger?]
    /// Per transition, the indices of the states it leaves and enters.
    let endpoints: [(source: Int, target: Int)]
    /// The events the paths send, by event id: the table's own values and the samples.
    let events: [Int: Definition.Event]
    /// Per state, the transitions that leave it.
    let outgoing: [[Int]]
    let schema: Schema<Definition>

    init(_ schema: Schema<Definition>, samples: [Definition.Event]) {
        self.schema = schema
        transitions = schema.transitions
        triggers = schema.triggers()
        endpoints = transitions.indices.map(schema.endpoints(ofTransition:))
        var events: [Int: Definition.Event] = [:]
        for id in 0..<schema.eventCount { events[id] = schema.event(withID: id) }
        for sample in samples {
            if let id = schema.eventID(of: sample), events[id] == nil { events[id] = sample }
        }
        self.events = events
        var outgoing = [[Int]](repeating: [], count: schema.states.count)
        for (index, ends) in endpoints.enumerated() { outgoing[ends.source].append(index) }
        self.outgoing = outgoing
    }

    /// Whether a path can give transition `index` its input: a timeout, or an event it has.
    func hasInput(_ index: Int) -> Bool {
        guard let trigger = triggers[index] else { return false }
        return schema.timeoutDuration(ofEventID: trigger.eventID) != nil || events[trigger.eventID] != nil
    }

    /// Whether conditions decide whether transition `index` fires.
    func isGuarded(_ index: Int) -> Bool {
        transitions[index].hasCondition || !(triggers[index]?.precedingAlternatives.isEmpty ?? true)
    }

    /// The shortest ways from the initial state to every state: fewest transitions that
    /// conditions decide first, then fewest transitions.
    func shortestWays() -> PathWays {
        let count = schema.states.count
        let initial = schema.stateIndex(of: schema.initialState) ?? 0
        var cost = [(guarded: Int, length: Int)?](repeating: nil, count: count)
        var via = [Int?](repeating: nil, count: count)
        var settled = [Bool](repeating: false, count: count)
        var open = [initial]
        cost[initial] = (0, 0)
        while let place = open.indices.min(by: { cost[open[$0]]! < cost[open[$1]]! }) {
            let state = open.remove(at: place)
            guard !settled[state] else { continue }
            settled[state] = true
            for index in outgoing[state] where hasInput(index) {
                let target = endpoints[index].target
                let next = (cost[state]!.guarded + (isGuarded(index) ? 1 : 0), cost[state]!.length + 1)
                if !settled[target], cost[target].map({ next < $0 }) ?? true {
                    cost[target] = next
                    via[target] = index
                    open.append(target)
                }
            }
        }
        return PathWays(via: via, reached: settled, endpoints: endpoints)
    }

    /// Why no path can reach transition `index`, or `nil` if one can.
    func deadReason(of index: Int, ways: PathWays) -> UncoveredTransition<Definition>.Reason? {
        if transitions[index].postpones { return .postpones }
        if triggers[index] == nil { return .shadowed }
        if !ways.reached[endpoints[index].source] { return .unreachableState }
        if !hasInput(index) { return .noSampleEvent }
        return nil
    }

    /// Whether transition `index` is the way to its target that the paths of the target's own
    /// transitions start with: its path would be a prefix of theirs.
    func leadsOn(_ index: Int, ways: PathWays) -> Bool {
        let target = endpoints[index].target
        return ways.via[target] == index && outgoing[target].contains { deadReason(of: $0, ways: ways) == nil }
    }

    /// The step that fires transition `index`.
    func step(_ index: Int) -> PathStep<Definition> {
        let trigger = triggers[index]!
        let context = PredicateContext(trigger.predicates)
        let input: PathStep<Definition>.Input = if let duration = schema.timeoutDuration(ofEventID: trigger.eventID) {
            .timeout(duration, context)
        } else {
            .event(events[trigger.eventID]!, context)
        }
        let deciding = (transitions[index].hasCondition ? [index] : []) + trigger.precedingAlternatives
        return PathStep(input: input, transition: transitions[index], decidingRows: deciding.map { transitions[$0] },
                        index: index)
    }
}

/// The shortest ways to a schema's states, as the transition that enters each on its way.
struct PathWays {
    /// Per state, the transition its shortest way ends with; `nil` for the initial state and
    /// for states no way reaches.
    let via: [Int?]
    /// Per state, whether a way reaches it.
    let reached: [Bool]
    let endpoints: [(source: Int, target: Int)]

    /// The transitions of the way to `state`, in order.
    func way(to state: Int) -> [Int] {
        var way: [Int] = []
        var current = state
        while let index = via[current] {
            way.append(index)
            current = endpoints[index].source
        }
        return way.reversed()
    }
}
