/// What a running machine offers its actions. The ``Machine`` actor conforms.
///
/// Deliberately not parameterized by `Event`: a constrained existential such as
/// `any ActionRuntime<Event>` needs its metadata looked up at run time in generic code, on every
/// transition. `postFollowUp` takes the event generically instead and checks its type.
@usableFromInline
protocol ActionRuntime: AnyObject, Sendable {
    func postFollowUp<E: Sendable>(_ event: E, predicates: PredicateContext?) throws(MachineError)
    func schedule<E: Sendable>(_ event: E, after delay: Duration, predicates: PredicateContext?) -> ScheduledEvent?
    /// The error for a delayed post the machine refuses, told to its instrument.
    func refusedDelayedPost() -> MachineError
}
