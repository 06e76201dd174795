/// An immutable, validated state-transition table, built once and shared by any number of machines.
///
/// ```swift
/// let turnstile = try Schema<Turnstile>(initial: .locked) {
///     define(.locked) {
///         when(.coin) | then(.unlocked) | unlock
///         when(.pass) | then(.locked)   | alarm
///     }
///     define(.unlocked) {
///         when(.coin) | then(.unlocked) | thankyou
///         when(.pass) | then(.locked)   | lock
///     }
/// }
/// ```
///
/// Building checks the whole table and throws one ``SchemaError`` listing every problem with its
/// file and line. A schema is a value: there is nothing to build twice, and copies share storage.
///
/// States must be `Hashable`. Events are matched by value when they are `Hashable`, or by case,
/// whatever their payload, when they conform to ``CaseKeyed``.
public struct Schema<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    @usableFromInline package let storage: SchemaStorage<Definition>

    /// Builds and validates a schema.
    ///
    /// Every state a machine can be in must be defined with `define`, or listed in `final`: a
    /// final state has no transitions, and a machine that reaches it handles no more events.
    ///
    /// ```swift
    /// let order = try Schema<Orders>(initial: .placed, final: [.delivered, .cancelled]) {
    ///     define(.placed) { when(.cancel) | then(.cancelled) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - initial: the state a new machine starts in.
    ///   - final: the states without transitions that transitions lead to.
    ///   - entryExitPolicy: when entry and exit actions run; by default only on a change of state.
    ///   - fileID: where the schema is written, for diagnostics; leave the default.
    ///   - line: the line it is written on, likewise.
    ///   - table: the `define` statements.
    /// - Throws: ``SchemaError`` with every problem found, including ``SchemaError/Kind/undefinedState``
    ///   for a state that transitions lead to (or the initial state) that is neither defined nor final.
    public init(
        initial: State, final: Set<State> = [], entryExitPolicy: EntryExitPolicy = .executeOnChangeOnly,
        fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.TableBuilder<Definition> _ table: () -> [Syntax.Define<Definition>]
    ) throws(SchemaError) {
        storage = try SchemaCompiler.compile(
            initial: initial, final: final, policy: entryExitPolicy, definitions: table(),
            location: SourceLocation(fileID, line))
    }

    /// The state a new machine starts in.
    public var initialState: State { storage.states[Int(storage.initial)] }

    /// The states declared final: they have no transitions.
    public var finalStates: Set<State> { storage.finalStates }

    /// Every state the table names, in order of first appearance (the initial state first).
    public var states: [State] { storage.states }

    /// Every event the table responds to, in order of first appearance: `Event` values, or
    /// `Event.CaseKey` values for ``CaseKeyed`` events.
    public var events: [any Hashable & Sendable] { storage.events }

    /// The predicate types the table mentions, in order of first appearance.
    public var predicateTypes: [PredicateTypeDescription] {
        storage.table.predicateTypes.map { PredicateTypeDescription(name: $0.name, cases: $0.cases) }
    }

    /// Every transition, flattened: super states, context blocks and `when(.a, or: .b)` expanded,
    /// overridden transitions removed.
    public var transitions: [Transition<Definition>] {
        storage.transitions.indices.map { Transition(storage: storage, index: $0) }
    }

    /// When entry and exit actions run.
    public var entryExitPolicy: EntryExitPolicy { storage.actions.policy }

    /// The entry actions of `state`, those of its super states first.
    public func entryActions(of state: State) -> Actions<Definition> {
        storage.table.stateID(of: state).map { storage.actions.entryActions[Int($0)] } ?? Actions()
    }

    /// The exit actions of `state`, those of its super states first.
    public func exitActions(of state: State) -> Actions<Definition> {
        storage.table.stateID(of: state).map { storage.actions.exitActions[Int($0)] } ?? Actions()
    }

    /// Finds what `event` does in `state`, without running anything: the synchronous core step.
    ///
    /// Conditions are evaluated; actions are not run. Unhandled input never traps: the result says why.
    ///
    /// ```swift
    /// switch schema.resolve(.pass, in: .locked, predicates: PredicateContext(Enforcement.weak)) {
    /// case .transition(let transition): print("to", transition.target)
    /// case .conditionFalse(let transition): print("blocked by a condition at", transition.location)
    /// case .unhandled(let reason): print(reason)
    /// }
    /// ```
    ///
    /// It allocates nothing, and is specialized for the schema's types where it is called.
    @inlinable
    public func resolve(_ event: Event, in state: State, predicates: PredicateContext = .none) -> Resolution<Definition>
    where Definition.Data == Void {
        resolve(event, in: state, predicates: predicates, data: ())
    }

    /// Finds what `event` does in `state` for a machine whose data is `data`, which conditions
    /// on the data read; see ``resolve(_:in:predicates:)-(_,_,PredicateContext)``.
    @inlinable
    public func resolve(
        _ event: Event, in state: State, predicates: PredicateContext = .none, data: Definition.Data
    ) -> Resolution<Definition> {
        let storage = self.storage
        guard let stateID = storage.table.stateID(of: state) else { return .unhandled(UnhandledReason(.unknownState)) }
        return switch storage.table.lookup(state: stateID, event: event, predicates: predicates, data: data) {
        case .fires(let index): .transition(Transition(storage: storage, index: Int(index)))
        case .conditionFalse(let index): .conditionFalse(Transition(storage: storage, index: Int(index)))
        case .unhandled(let reason): .unhandled(reason)
        }
    }

    /// The exit actions to run when `transition` fires, according to the entry/exit policy.
    public func exitActions(for transition: Transition<Definition>) -> Actions<Definition> {
        runsEntryAndExit(transition) ? storage.actions.exitActions[Int(transition.compiled.source)] : Actions()
    }

    /// The entry actions to run when `transition` fires, according to the entry/exit policy.
    public func entryActions(for transition: Transition<Definition>) -> Actions<Definition> {
        runsEntryAndExit(transition) ? storage.actions.entryActions[Int(transition.compiled.target)] : Actions()
    }

    /// The id of `state` in this schema's dense numbering, for the core step (``step(_:_:_:id:data:)``).
    @_spi(Benchmarks) public func stateID(of state: State) -> Int32? { storage.table.stateID(of: state) }

    private func runsEntryAndExit(_ transition: Transition<Definition>) -> Bool {
        storage.actions.policy == .executeAlways || transition.compiled.source != transition.compiled.target
    }
}

/// A predicate type a schema mentions.
public struct PredicateTypeDescription: Sendable, CustomStringConvertible {
    /// The type's name, as `Enforcement`.
    public let name: String
    /// Its cases, in `allCases` order.
    public let cases: [any MatchingPredicate]

    /// `Enforcement: weak, strong`.
    public var description: String { "\(name): " + cases.map { "\($0)" }.joined(separator: ", ") }
}

extension Schema {
    /// The timeouts armed when a machine enters `state`, shortest first.
    public func timeouts(of state: State) -> [Timeout] {
        guard let id = storage.table.stateID(of: state) else { return [] }
        return storage.timers.stateTimeouts[Int(id)].map { Timeout($0.duration) }
    }

    /// What the state timeout of `duration` does in `state`, for a machine whose data is `data`
    /// and whose standing predicates are `predicates`: unhandled if the state arms no timeout of
    /// that duration.
    package func resolveTimeout(
        _ duration: Duration, in state: State, predicates: PredicateContext = .none, data: Definition.Data
    ) -> Resolution<Definition> {
        guard let stateID = storage.table.stateID(of: state) else { return .unhandled(UnhandledReason(.unknownState)) }
        guard let eventID = storage.timers.timeoutID(duration),
              storage.timers.stateTimeouts[Int(stateID)].contains(where: { $0.eventID == eventID })
        else { return .unhandled(UnhandledReason(.noTransition)) }
        return switch storage.table.lookup(state: stateID, eventID: eventID, event: nil, predicates: predicates, data: data) {
        case .fires(let index): .transition(Transition(storage: storage, index: Int(index)))
        case .conditionFalse(let index): .conditionFalse(Transition(storage: storage, index: Int(index)))
        case .unhandled(let reason): .unhandled(reason)
        }
    }

    /// How many ``StateTask``s run while a machine is in `state`.
    public func taskCount(of state: State) -> Int {
        storage.table.stateID(of: state).map { storage.timers.stateTasks[Int($0)].count } ?? 0
    }
}
