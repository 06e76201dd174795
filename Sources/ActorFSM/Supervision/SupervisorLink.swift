/// How a supervised machine reports to its supervisor: one link per supervisor, shared by all its
/// machines, so that a machine carries one reference instead of callbacks of its own.
@usableFromInline
final class SupervisorLink<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline weak let supervisor: Supervisor<State, Event, ID>?

    init(_ supervisor: Supervisor<State, Event, ID>) { self.supervisor = supervisor }
}
