/// The immutable tables behind a `Schema`, shared by every copy of it and every machine: what
/// the schema is (its states, events and transitions), and three tables built from it, to find
/// transitions, to run their actions, and to arm their timers.
///
/// Every stored property is a `let` of a `Sendable` type, so the class is `Sendable` by construction.
@usableFromInline
final package class SchemaStorage<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let initial: Int32
    /// The states declared final.
    let finalStates: Set<State>
    @usableFromInline package let states: [State]
    @usableFromInline let events: [any Hashable & Sendable]
    /// Labels of the events, then of the timeouts.
    let eventLabels: [String]
    /// Every transition, flattened, as the compiler made it.
    let transitions: [CompiledTransition<Definition>]
    /// Finds transitions.
    @usableFromInline package let table: LookupTable<Definition>
    /// Runs them.
    @usableFromInline let actions: ActionTable<Definition>
    /// Arms their timers.
    @usableFromInline let timers: TimerTable<Definition>

    init(
        initial: Int32, finalStates: Set<State>, states: [State], events: [any Hashable & Sendable],
        eventLabels: [String], transitions: [CompiledTransition<Definition>], table: LookupTable<Definition>,
        actions: ActionTable<Definition>, timers: TimerTable<Definition>
    ) {
        self.initial = initial
        self.finalStates = finalStates
        self.states = states
        self.events = events
        self.eventLabels = eventLabels
        self.transitions = transitions
        self.table = table
        self.actions = actions
        self.timers = timers
    }
}
