// A schema written as a transition function, in the style of SwiftyStateMachine: the function is
// asked once per (state, event) pair when the schema is built, and its answers become the same
// table the DSL builds.

extension Schema where Definition.State: CaseIterable, Definition.Event: CaseIterable & Hashable {
    /// Builds and validates a schema from a transition function: the state an event leads to
    /// from each state, or `nil` where the event is not handled.
    ///
    /// ```swift
    /// let counter = try Schema<Counter>(initial: .one, final: [.three]) { state, event in
    ///     switch (state, event) {
    ///     case (.one, .increment): .two
    ///     case (.two, .increment): .three
    ///     case (.two, .decrement): .one
    ///     default: nil
    ///     }
    /// }
    /// ```
    ///
    /// The function is called once for every state of `State.allCases` and every event of
    /// `Event.allCases`, when the schema is built, never while a machine runs: the schema is the
    /// same table the DSL would build, with its O(1) lookup, records, diagrams and validation.
    /// A transition that returns its own state is a self-transition. What a function cannot
    /// express is left to the DSL: actions, entry and exit actions, super states, predicates,
    /// conditions, timeouts, and events with payloads.
    ///
    /// - Parameters:
    ///   - initial: the state a new machine starts in.
    ///   - final: the states without transitions that transitions lead to.
    ///   - fileID: where the schema is written, for its diagnostics.
    ///   - line: likewise.
    ///   - next: the transition function.
    /// - Throws: ``SchemaError`` with every problem found: a final state the function gives a
    ///   transition, a state the function leads to (or the initial state) that has no transition
    ///   and is not final.
    public init(
        initial: State, final: Set<State> = [], fileID: StaticString = #fileID, line: UInt = #line,
        transitions next: (State, Event) -> State?
    ) throws(SchemaError) {
        let location = SourceLocation(fileID, line)
        let definitions = State.allCases.compactMap { state -> Syntax.Define<Definition>? in
            let fragments = Event.allCases.compactMap { event in
                next(state, event).map { target in
                    Fragment<Definition>(events: [.value(event)], target: .state(target), location: location)
                }
            }
            guard !fragments.isEmpty else { return nil }
            return Syntax.Define(state: state, superStates: [], onEntry: Actions(), onExit: Actions(),
                                 block: Syntax.Block(fragments: fragments), location: location)
        }
        storage = try SchemaCompiler.compile(initial: initial, final: final, policy: .executeOnChangeOnly,
                                             definitions: definitions, location: location)
    }
}
