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
    /// What machines of the schema with the default configuration share.
    package let defaultSettings: MachineSettings<State>

    /// The tables of a schema whose states `table` numbers, starting in `initial`.
    init(
        initial: State, finalStates: Set<State>, events: [any Hashable & Sendable], eventLabels: [String],
        transitions: [CompiledTransition<Definition>], table: LookupTable<Definition>, actions: ActionTable<Definition>,
        timers: TimerTable<Definition>
    ) {
        self.initial = table.stateIDs[initial]!
        self.finalStates = finalStates
        self.states = table.stateIDs.sorted { $0.value < $1.value }.map(\.key)
        self.events = events
        self.eventLabels = eventLabels
        self.transitions = transitions
        self.table = table
        self.actions = actions
        self.timers = timers
        self.defaultSettings = MachineSettings(MachineConfiguration())
    }
}

extension MachineSettings {
    /// The settings of a machine of `storage`'s schema configured by `configuration`: the
    /// schema's shared settings when the configuration is the default one, so that a machine
    /// made without a supervisor does not pay for a copy of its own.
    @usableFromInline
    package static func of<Definition>(
        _ configuration: MachineConfiguration<State>, for storage: SchemaStorage<Definition>
    ) -> MachineSettings<State> where Definition.State == State {
        configuration.isDefault ? storage.defaultSettings : MachineSettings(configuration)
    }
}
