/// What a machine keeps only once something needs it: postponed events, the subscribers to
/// its data, and what tests wait for (with the counts they wait on: the callers that awaited
/// the machine's end, the stale timer events dropped). Made on first use, so that a machine
/// that needs none of it (a supervisor may hold a million idle ones) pays one reference for
/// it. Only its machine's actor touches it.
@usableFromInline
final class MachineExtras<Definition: MachineDefinition> {
    // The fields skip the run-time exclusivity check, as the machine's own per-event fields do:
    // only the machine's actor touches them, and none is passed `inout` across a call that
    // could reach it again.
    /// How many events wait in the inbox's postponed list for a change of state.
    @exclusivity(unchecked) @usableFromInline var postponedCount = 0
    /// Whether records carry the data, since a subscriber asked for it.
    @exclusivity(unchecked) @usableFromInline var recordsCarryData = false
    /// Subscribers to the data's changes.
    @exclusivity(unchecked) @usableFromInline var dataSubscribers = Subscribers<Definition.Data>()
    /// Tests waiting for a count of postponed events.
    @exclusivity(unchecked) @usableFromInline var postponedWatchers = CountWatchers()
    /// Tests waiting for the machine's refusal, its dropped timer events or its end's waiters.
    @exclusivity(unchecked) @usableFromInline var watchers = MachineWatchers()
    /// A durable machine's operator acts, as its journal records them.
    @exclusivity(unchecked) var operators = OperatorRecording<Definition>()
    /// The timer events that fell due while the machine was paused, in the order of their
    /// deadlines: they join the queue on the resume.
    @exclusivity(unchecked) @usableFromInline var heldTimerEvents: [(due: TimerDeadline, entry: InboxEntry<Definition>)] = []
    /// Tests waiting for a count of timer events held while paused.
    @exclusivity(unchecked) var heldWatchers = CountWatchers()

    @usableFromInline init() {}
}

extension Machine {
    /// The machine's extras, made if it has none yet.
    @usableFromInline
    func makeExtras() -> MachineExtras<Definition> {
        if let extras { return extras }
        let made = MachineExtras<Definition>()
        extras = made
        return made
    }

    /// How many events wait for a change of state.
    @inlinable var postponedCount: Int {
        get { extras?.postponedCount ?? 0 }
        set { makeExtras().postponedCount = newValue }
    }

    /// Whether records carry the data.
    @inlinable var recordsCarryData: Bool { extras?.recordsCarryData ?? false }
}
