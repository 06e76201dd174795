import Synchronization

/// How a supervised machine reports to its supervisor: one link per supervisor, shared by all its
/// machines, so that a machine carries one reference instead of callbacks of its own.
@usableFromInline
final class SupervisorLink<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline weak let supervisor: Supervisor<State, Event, ID>?
    /// Whether anyone listens to the supervisor's events, shared with it. A machine reads it
    /// before each record: loading `supervisor`, a weak reference, retains the supervisor, and
    /// machines on different cores would contend for its reference count on every event.
    @usableFromInline let listening: ListeningFlag

    init(_ supervisor: Supervisor<State, Event, ID>, listening: ListeningFlag) {
        self.supervisor = supervisor
        self.listening = listening
    }

    /// Whether the supervisor has listeners for the machines' records.
    @inlinable
    var isListenedTo: Bool { listening.isSet.load(ordering: .acquiring) }
}

/// Whether a supervisor has listeners: set under its listeners' lock, read without a lock on
/// every record.
@usableFromInline
final class ListeningFlag: Sendable {
    @usableFromInline let isSet = Atomic<Bool>(false)

    init() {}
}
