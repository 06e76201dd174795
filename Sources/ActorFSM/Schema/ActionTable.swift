/// What the runtime needs to run a schema's transitions: each transition's actions, and its
/// exit and entry actions composed with them under the entry/exit policy.
@usableFromInline
final class ActionTable<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline let entryActions: [Actions<Definition>]
    @usableFromInline let exitActions: [Actions<Definition>]
    let policy: EntryExitPolicy
    /// Whether the policy runs entry and exit actions even without a change of state.
    @usableFromInline let runsEntryAndExit: Bool
    /// Each transition's actions, apart, so the hot path copies one reference.
    @usableFromInline let transitionActions: [Actions<Definition>]
    /// Each transition's source location, for records.
    @usableFromInline let transitionLocations: [SourceLocation]
    /// Per transition, what running it needs, so the hot path never copies a whole `CompiledTransition`.
    @usableFromInline let hot: [HotTransition]
    /// Owns the composed actions that `hot` borrows.
    let synchronousRuns: [SynchronousRun<Definition>?]

    /// What the hot path needs of a transition, with the entry/exit policy already applied.
    @usableFromInline
    struct HotTransition: Sendable {
        @usableFromInline let source: Int32
        @usableFromInline let target: Int32
        @usableFromInline let hasActions: Bool
        /// Whether firing it runs exit actions of the source: there are some, and the
        /// entry/exit policy runs them for this transition.
        @usableFromInline let runsExit: Bool
        /// Whether firing it runs entry actions of the target, likewise.
        @usableFromInline let runsEntry: Bool
        /// Whether every action it runs (exit, own, entry) is synchronous: `synchronousRun != nil`,
        /// stored, since deriving it on the hot path made the core step slower.
        @usableFromInline let isSynchronous: Bool
        /// Whether an action it runs takes the ``TransitionContext``; otherwise none is built.
        @usableFromInline let readsContext: Bool
        /// Whether it postpones its event until the next change of state, running nothing.
        @usableFromInline let postpones: Bool
        /// Its actions composed into closures, if they are all synchronous: borrowed, since
        /// `SchemaStorage.synchronousRuns` keeps it alive as long as this table.
        @usableFromInline let synchronousRun: Borrowed<SynchronousRun<Definition>>?
        /// Whether it runs no action at all.
        @usableFromInline var runsNothing: Bool { !runsExit && !hasActions && !runsEntry }
    }

    /// The actions of `transitions`, with the entry and exit actions of each state.
    init(
        transitions: [CompiledTransition<Definition>], entryActions: [Actions<Definition>],
        exitActions: [Actions<Definition>], policy: EntryExitPolicy
    ) {
        self.entryActions = entryActions
        self.exitActions = exitActions
        self.policy = policy
        let runsEntryAndExit = policy == .executeAlways
        self.runsEntryAndExit = runsEntryAndExit
        self.transitionActions = transitions.map(\.actions)
        self.transitionLocations = transitions.map(\.location)
        var hot: [HotTransition] = []
        var synchronousRuns: [SynchronousRun<Definition>?] = []
        for transition in transitions {
            let changes = runsEntryAndExit || transition.source != transition.target
            let exit = changes ? exitActions[Int(transition.source)] : Actions()
            let entry = changes ? entryActions[Int(transition.target)] : Actions()
            let run = SynchronousRun(exit: exit, actions: transition.actions, entry: entry)
            synchronousRuns.append(run)
            hot.append(HotTransition(
                source: transition.source, target: transition.target,
                hasActions: transition.actions.count > 0, runsExit: exit.count > 0, runsEntry: entry.count > 0,
                isSynchronous: run != nil, readsContext: [exit, transition.actions, entry].contains { $0.readsContext },
                postpones: transition.postpones, synchronousRun: run.map { Borrowed($0) }))
        }
        self.hot = hot
        self.synchronousRuns = synchronousRuns
    }
}
