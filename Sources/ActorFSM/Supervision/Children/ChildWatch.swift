import Synchronization

/// What a parent hears from a child machine: kept by the child's supervisor under the child's
/// id from the parent's entry into the state until the child's end is handed over, so that it
/// follows the child through restarts, passivation and restores.
///
/// It is taken out of the supervisor's registry, under its lock, by whoever hands the end
/// over, so the parent hears of one child's end once.
@usableFromInline
final class ChildWatch<Definition: MachineDefinition>: Sendable {
    /// The child reached a final state, with this data.
    @usableFromInline let reached: @Sendable (Definition.State, Definition.Data) -> Void
    /// The child ended without reaching one, for good.
    @usableFromInline let ended: @Sendable (any Error) -> Void
    /// What the child is sent when its parent lets go of it before its end.
    @usableFromInline let cancelling: Definition.Event?
    /// Whether the parent still waits: cleared, under the supervisor's lock, when it leaves the
    /// state or ends, so that a watch taken out for a moment is not put back for nobody.
    private let wanted = Atomic<Bool>(true)

    @usableFromInline init(
        cancelling: Definition.Event?, reached: @escaping @Sendable (Definition.State, Definition.Data) -> Void,
        ended: @escaping @Sendable (any Error) -> Void
    ) {
        self.cancelling = cancelling
        self.reached = reached
        self.ended = ended
    }

    /// Whether the parent still waits for the child.
    var isWanted: Bool { wanted.load(ordering: .acquiring) }

    /// The parent no longer waits for the child.
    func release() { wanted.store(false, ordering: .releasing) }
}

/// Why a child machine ended without reaching a final state, when there is no error to say it:
/// it was stopped, or its supervisor shut down.
public struct ChildMachineEnded: Error, Sendable, CustomStringConvertible {
    /// The child's id, as text.
    public let machine: String
    /// How it ended.
    public let termination: String

    /// "child machine pay-7 ended without reaching a final state: stopped".
    public var description: String {
        "child machine \(machine) ended without reaching a final state: \(termination)"
    }
}
