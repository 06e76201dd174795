/// The immutable tables behind a `Schema`, shared by every copy of it and every machine: what
/// the schema is (its states, events and transitions), and three tables built from it, to find
/// transitions, to run their actions, and to arm their timers.
///
/// Every stored property is a `let` of a `Sendable` type, so the class is `Sendable` by construction.
@usableFromInline
final class SchemaStorage<State: Hashable & Sendable, Event: Sendable>: Sendable {
    let initial: Int32
    /// The states declared final.
    let finalStates: Set<State>
    @usableFromInline let states: [State]
    @usableFromInline let events: [any Hashable & Sendable]
    /// Labels of the events, then of the timeouts.
    let eventLabels: [String]
    /// Every transition, flattened, as the compiler made it.
    let transitions: [CompiledTransition<State, Event>]
    /// Finds transitions.
    @usableFromInline let table: LookupTable<State, Event>
    /// Runs them.
    @usableFromInline let actions: ActionTable<State, Event>
    /// Arms their timers.
    @usableFromInline let timers: TimerTable<State, Event>

    init(
        initial: Int32, finalStates: Set<State>, states: [State], events: [any Hashable & Sendable],
        eventLabels: [String], transitions: [CompiledTransition<State, Event>], table: LookupTable<State, Event>,
        actions: ActionTable<State, Event>, timers: TimerTable<State, Event>
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
