/// A machine's configuration, shared by reference: every machine of a supervisor points at one.
@usableFromInline
final class MachineSettings<State: Hashable & Sendable>: Sendable {
    @usableFromInline let configuration: MachineConfiguration<State>
    /// The configuration's standing predicates, apart: the hot path reads them for every event
    /// sent without predicates, and copying the whole configuration costs a retain per field.
    @usableFromInline let standingPredicates: PredicateContext

    init(_ configuration: MachineConfiguration<State>) {
        self.configuration = configuration
        self.standingPredicates = configuration.standingPredicates
    }
}
