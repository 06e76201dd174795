/// Turns `define` statements into a validated `SchemaStorage`, collecting every problem.
struct SchemaCompiler<Definition: MachineDefinition> {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    private var inheritance = Inheritance<Definition>()
    private var diagnostics: [SchemaError.Diagnostic] = []
    private var states: [State] = []
    private var stateIDs: [State: Int32] = [:]
    private var events: [EventMatcher<Event>] = []
    private var eventIDs: [SendableHashable: Int32] = [:]
    private var eventLocations: [SourceLocation] = []
    /// The durations of `after(…)` statements, in order of first appearance; their ids follow the events'.
    private var timeouts: [Duration] = []
    /// Statements that start with `otherwise()` outside a `firstOf` block, reported once each.
    private var misplacedOtherwise: Set<SourceLocation> = []

    /// - Parameter columnWidthLimit: the widest row of strides whose columns may be hashed (see
    ///   ``TypeColumns``); tests lower it to take the search by slot.
    static func compile(
        initial: State, final: Set<State> = [], policy: EntryExitPolicy, definitions: [Syntax.Define<Definition>],
        location: SourceLocation, columnWidthLimit: Int = TypeColumns.maximumWidth
    ) throws(SchemaError) -> SchemaStorage<Definition> {
        var compiler = SchemaCompiler()
        return try compiler.run(
            initial: initial, final: final, policy: policy, definitions: definitions, location: location,
            columnWidthLimit: columnWidthLimit)
    }

    private mutating func run(
        initial: State, final: Set<State>, policy: EntryExitPolicy, definitions: [Syntax.Define<Definition>],
        location: SourceLocation, columnWidthLimit: Int
    ) throws(SchemaError) -> SchemaStorage<Definition> {
        if definitions.isEmpty {
            diagnostics.append(.init(.emptyTable, "the table defines no state; add at least one `define`", at: [location]))
        }
        _ = intern(initial)
        let flat = flatten(definitions)
        var transitions = flat.transitions
        // An empty table is reported as such, not as an undefined initial state.
        if !definitions.isEmpty {
            diagnostics += StateCheck(initial: initial, final: final, definitions: definitions, transitions: transitions,
                                      states: states, location: location).diagnostics
        }
        checkEventMatching()
        transitions = transitions.map(numberingTimeouts)
        let entryActions = (0..<states.count).map { flat.entry[Int32($0)] ?? Actions() }
        let exitActions = (0..<states.count).map { flat.exit[Int32($0)] ?? Actions() }
        let check = TimeoutCheck(
            policy: policy, firstTimeoutID: Int32(events.count), durations: timeouts, entryActions: entryActions,
            exitActions: exitActions, describeState: { [states] in "\(states[Int($0)])" })
        diagnostics += transitions.flatMap(check.diagnostics)
        diagnostics += transitions.flatMap(PostponeCheck(
            firstTimeoutID: Int32(events.count), describeState: { [states] in "\(states[Int($0)])" }).diagnostics)
        let eventCount = events.count + timeouts.count
        let (stateNames, eventNames) = (states.map { "\($0)" }, events.map(\.label) + timeouts.map { Timeout($0).description })
        let columns = TypeColumns(
            typeIDs: inheritance.space.types.map(\.id) + [ObjectIdentifier(Never.self)], maximumWidth: columnWidthLimit)
        let lookup = LookupTableBuilder(
            transitions: transitions, stateCount: states.count, eventCount: eventCount, space: inheritance.space,
            columns: columns, describeState: { stateNames[Int($0)] }, describeEvent: { eventNames[Int($0)] }).build()
        diagnostics += inheritance.allDiagnostics + lookup.diagnostics
        guard diagnostics.isEmpty else { throw SchemaError(diagnostics: diagnostics) }

        let stateTasks = (0..<states.count).map { flat.tasks[Int32($0)] ?? [] }
        let table = LookupTable(
            states: states, eventCount: eventCount,
            eventID: events.first.map { $0.makeIndex(events.map(\.identity)) } ?? { _ in nil },
            tagTable: events.first?.kind == .value ? events.first?.makeTagTable(events.map(\.identity)) : nil,
            space: inheritance.space, typeColumns: columns, transitions: transitions, groups: lookup)
        return SchemaStorage(
            initial: initial, finalStates: final, events: events.map(\.identity.base), eventLabels: eventNames, transitions: transitions, table: table,
            actions: ActionTable(transitions: transitions, entryActions: entryActions, exitActions: exitActions,
                                 policy: policy),
            timers: TimerTable(timeouts: timeouts, eventCount: events.count, transitions: transitions,
                               stateTasks: stateTasks))
    }

    /// What the `define` statements add up to, per state id.
    private struct Flattened {
        var transitions: [CompiledTransition<Definition>] = []
        var entry: [Int32: Actions<Definition>] = [:]
        var exit: [Int32: Actions<Definition>] = [:]
        var tasks: [Int32: [StateTask<Definition>]] = [:]
    }

    /// Every state's transitions, entry and exit actions and tasks, from its `define`
    /// statements and the super states they adopt.
    private mutating func flatten(_ definitions: [Syntax.Define<Definition>]) -> Flattened {
        var flat = Flattened()
        for definition in definitions {
            let source = intern(definition.state)
            flat.tasks[source, default: []] += definition.tasks
            let candidates = inheritance.candidates(
                adopting: definition.superStates, own: definition.block, state: "\(definition.state)")
            flat.transitions += candidates.map { compile($0, from: source, state: definition.state) }
            flat.entry[source, default: Actions()] = flat.entry[source, default: Actions()]
                & Inheritance.actions(adopting: definition.superStates, own: definition.onEntry) { $0.onEntry }
            flat.exit[source, default: Actions()] = flat.exit[source, default: Actions()]
                & Inheritance.actions(adopting: definition.superStates, own: definition.onExit) { $0.onExit }
        }
        return flat
    }

    private mutating func compile(
        _ candidate: Candidate<Definition>, from source: Int32, state: State
    ) -> CompiledTransition<Definition> {
        let target: Int32 = switch candidate.fragment.target {
        case .state(let next)?: intern(next)
        case .unchanged?, .postpone?, nil: source
        }
        let eventID: Int32
        if let duration = candidate.event.timeout {
            // Numbered from -1 down for now: `numberingTimeouts` moves them after the events.
            let index = timeouts.firstIndex(of: duration) ?? timeouts.count
            if index == timeouts.count { timeouts.append(duration) }
            eventID = -1 - Int32(index)
        } else if let known = eventIDs[candidate.event.identity] {
            eventID = known
        } else {
            eventID = Int32(events.count)
            events.append(candidate.event)
            eventLocations.append(candidate.location)
            eventIDs[candidate.event.identity] = eventID
        }
        if candidate.fragment.isOtherwise && candidate.fragment.alternative == nil,
           misplacedOtherwise.insert(candidate.location).inserted {
            diagnostics.append(.init(
                .misplacedOtherwise, "otherwise() applies only as the last statement of a firstOf { } block; remove it, or wrap the alternatives in firstOf { }",
                at: [candidate.location], state: "\(state)"))
        }
        var compiled = CompiledTransition(
            source: source, event: eventID, target: target, filter: candidate.filter,
            guards: candidate.fragment.guards, actions: candidate.fragment.actions,
            location: candidate.location, isOverride: candidate.isOverride,
            postpones: candidate.fragment.target.map { if case .postpone = $0 { true } else { false } } ?? false)
        compiled.alternative = candidate.fragment.alternative
        return compiled
    }

    /// `transition` with a timeout's provisional (negative) id replaced by its final one, after the events'.
    private func numberingTimeouts(_ transition: CompiledTransition<Definition>) -> CompiledTransition<Definition> {
        guard transition.event < 0 else { return transition }
        return transition.with(event: Int32(events.count) - 1 - transition.event)
    }

    private mutating func intern(_ state: State) -> Int32 {
        if let id = stateIDs[state] { return id }
        let id = Int32(states.count)
        states.append(state)
        stateIDs[state] = id
        return id
    }

    /// Events must be matched one way throughout: by value, or (for `CaseKeyed` events) by key.
    private mutating func checkEventMatching() {
        guard let first = events.first, let odd = events.firstIndex(where: { $0.kind != first.kind }) else { return }
        let (valued, keyed) = first.kind == .value ? (0, odd) : (odd, 0)
        diagnostics.append(.init(
            .mixedEventMatching,
            "\(events[valued].label) is matched by value but \(events[keyed].label) by case key; for a CaseKeyed event write when(.case) to match every payload, and use condition { } to test a payload",
            at: [eventLocations[valued], eventLocations[keyed]], event: events[valued].label))
    }
}
