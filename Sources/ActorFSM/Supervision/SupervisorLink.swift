import Synchronization

/// How a supervised machine reports to its supervisor: one link per supervisor, shared by all its
/// machines, so that a machine carries one reference instead of callbacks of its own.
@usableFromInline
final class SupervisorLink<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline weak let supervisor: Supervisor<State, Event, ID>?
    /// Whether anyone listens to the supervisor's events, shared with it. A machine reads it
    /// before each record: loading `supervisor`, a weak reference, retains the supervisor, and
    /// machines on different cores would contend for its reference count on every event.
    @usableFromInline let flags: SupervisorFlags

    init(_ supervisor: Supervisor<State, Event, ID>, flags: SupervisorFlags) {
        self.supervisor = supervisor
        self.flags = flags
    }

    /// Whether the supervisor has listeners for the machines' records.
    @inlinable
    var isListenedTo: Bool { flags.isListened.load(ordering: .acquiring) }

    /// Whether a stopped machine must report to the supervisor: not once a shutdown has taken
    /// every machine out of its registry, unless someone listens for the terminations.
    var wantsStopReport: Bool {
        !flags.machinesHandedOver.load(ordering: .acquiring) || isListenedTo
    }
}

/// What a supervisor's machines read without a lock: whether anyone listens (set under the
/// listeners' lock), and whether a shutdown has taken the machines (set under the registry's).
@usableFromInline
final class SupervisorFlags: Sendable {
    @usableFromInline let isListened = Atomic<Bool>(false)
    let machinesHandedOver = Atomic<Bool>(false)

    init() {}
}
