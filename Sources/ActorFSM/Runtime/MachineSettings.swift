/// A machine's configuration, shared by reference: every machine of a supervisor points at one.
@usableFromInline
final class MachineSettings<State: Hashable & Sendable>: Sendable {
    @usableFromInline let configuration: MachineConfiguration<State>
    init(_ configuration: MachineConfiguration<State>) { self.configuration = configuration }
}
