/// Checks that every state a machine can be in is either defined or declared final: a state
/// that transitions lead to without a `define` handles no event, which is almost always a
/// forgotten `define` rather than the end of the workflow.
struct StateCheck<Definition: MachineDefinition> {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let diagnostics: [SchemaError.Diagnostic]

    init(
        initial: State, final: Set<State>, definitions: [Syntax.Define<Definition>],
        transitions: [CompiledTransition<Definition>], states: [State], location: SourceLocation
    ) {
        var diagnostics: [SchemaError.Diagnostic] = []
        let defined = Set(definitions.map(\.state))
        // Where each undefined state is led to, in the order of the statements.
        var leadsTo: [State: [SourceLocation]] = [:]
        var order: [State] = []
        func note(_ state: State, at location: SourceLocation) {
            guard !defined.contains(state) && !final.contains(state) else { return }
            if leadsTo[state] == nil { order.append(state) }
            if leadsTo[state]?.contains(location) != true { leadsTo[state, default: []].append(location) }
        }
        note(initial, at: location)
        for transition in transitions { note(states[Int(transition.target)], at: transition.location) }
        for state in order {
            diagnostics.append(.init(
                .undefinedState,
                "no `define` for \(state), so a machine there would handle no event; define it, or list it in `final:` if the workflow ends there",
                at: leadsTo[state] ?? [location], state: "\(state)"))
        }
        for definition in definitions where final.contains(definition.state) {
            diagnostics.append(.init(
                .finalStateWithTransitions,
                "\(definition.state) is listed in `final:` but defined here; a final state has no transitions, so remove one or the other",
                at: [definition.location], state: "\(definition.state)"))
        }
        self.diagnostics = diagnostics
    }
}
