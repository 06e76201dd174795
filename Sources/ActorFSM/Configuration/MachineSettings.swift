/// A machine's configuration, shared by reference: every machine of a supervisor points at one.
///
/// The fields the hot path reads come first, ahead of the configuration, whose size depends on
/// `State`: their offsets are then the same for every `State`.
@usableFromInline
package final class MachineSettings<State: Hashable & Sendable>: Sendable {
    /// Whether there is an instrument: the one thing the hot path reads about it, so that a
    /// machine without one pays a load and a branch.
    @usableFromInline let isInstrumented: Bool
    /// The configuration's instrument, apart from it.
    @usableFromInline package let instrument: (any Instrument)?
    /// The configuration's standing predicates, apart: the hot path reads them for every event
    /// sent without predicates, and copying the whole configuration costs a retain per field.
    @usableFromInline let standingPredicates: PredicateContext
    @usableFromInline let configuration: MachineConfiguration<State>

    package init(_ configuration: MachineConfiguration<State>) {
        self.isInstrumented = configuration.instrument != nil
        self.instrument = configuration.instrument
        self.standingPredicates = configuration.standingPredicates
        self.configuration = configuration
    }
}
