import Synchronization

/// How a machine reports to the parent that made it (a supervisor): one link per parent, shared
/// by all its machines, so that a machine carries one reference instead of callbacks of its own.
/// The runtime owns this type; a parent says what it wants to hear.
@usableFromInline
package final class ParentLink<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package typealias ID = Definition.ID
    /// What the parent sets and its machines read without a lock.
    @usableFromInline let flags: ParentFlags
    /// Told each record, while the parent listens.
    @usableFromInline let recorded: @Sendable (TransitionRecord<Definition>) -> Void
    /// Told that the machine with this id and generation stopped, and how.
    let stopped: @Sendable (ID, UInt64, MachineTermination) -> Void
    /// Told that a machine completed a transition into a final state, with its data, while
    /// some of the parent's machines are children of other machines; answers whether the
    /// machine, a child whose end is handed over, stops now.
    let reachedFinal: @Sendable (Machine<Definition>, State, Definition.Data) -> Bool
    /// The drain starter of the definition, looked up once for every machine of the parent.
    @usableFromInline let drainStarter: DrainStarter<Definition>?

    init(
        flags: ParentFlags, recorded: @escaping @Sendable (TransitionRecord<Definition>) -> Void,
        stopped: @escaping @Sendable (ID, UInt64, MachineTermination) -> Void,
        reachedFinal: @escaping @Sendable (Machine<Definition>, State, Definition.Data) -> Bool
    ) {
        self.flags = flags
        self.recorded = recorded
        self.stopped = stopped
        self.reachedFinal = reachedFinal
        drainStarter = DrainStarters.starter(for: Definition.self)
    }

    /// Whether the parent listens for the machines' records.
    @inlinable var isListenedTo: Bool { flags.isListening.load(ordering: .acquiring) }

    /// Whether some machine of the parent is a child machine, whose final state is reported.
    @inlinable var reportsFinalStates: Bool { flags.hasChildMachines.load(ordering: .relaxed) }

    /// Whether a machine that stops must report it.
    var wantsStopReport: Bool { !flags.hasLetGo.load(ordering: .acquiring) || isListenedTo }
}

/// What a parent tells its machines without a lock. A machine reads `isListening` before each
/// record: calling the parent for every record would make busy machines on different cores
/// contend for it when nobody listens.
@usableFromInline
package final class ParentFlags: Sendable {
    /// Whether the parent listens for the machines' records.
    @usableFromInline let isListening = Atomic<Bool>(false)
    /// Whether the parent has let go of its machines (it is shutting down), so that a machine
    /// that stops need not report it unless someone listens.
    let hasLetGo = Atomic<Bool>(false)
    /// Whether some machine was ever started as another machine's child: until then, no machine
    /// looks up whether the state it entered is final. It is set before the first child is
    /// linked, and never cleared.
    @usableFromInline let hasChildMachines = Atomic<Bool>(false)

    init() {}
}
