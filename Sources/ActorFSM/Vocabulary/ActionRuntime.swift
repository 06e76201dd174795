/// What a running machine offers its actions. The ``Machine`` actor conforms.
///
/// Deliberately not parameterized by `Event`: a constrained existential such as
/// `any ActionRuntime<Event>` needs its metadata looked up at run time in generic code, on every
/// transition. `postFollowUp` takes the event generically instead and checks its type.
@usableFromInline
protocol ActionRuntime: AnyObject, Sendable {
    /// Queues a follow-up event, and returns `nil`, or tells the instrument of its refusal and
    /// returns why.
    func postFollowUp<E: Sendable>(_ event: E, predicates: PredicateContext?) -> MachineErrorKind?
    /// Queues an event to be processed right after the transition in progress, before every
    /// queued event, and returns `nil`; or tells the instrument of its refusal and returns why.
    func postNext<E: Sendable>(_ event: E, predicates: PredicateContext?) -> MachineErrorKind?
    func scheduleFromAction<E: Sendable>(_ event: E, after delay: Duration, predicates: PredicateContext?) -> ScheduledEvent?
    /// Tells the instrument of a scheduled event the machine refuses, and returns why.
    func refusedSchedule() -> MachineErrorKind
    /// The attempt the retried action `action` (counted from 0 among the transition's retried
    /// actions) of event `number` resumes at, and how long it still waits first, when a durable
    /// machine was restored in the middle of its retries; `nil` otherwise. Answered once.
    func resumedRetry(for number: UInt64, action: Int) -> (attempt: Int, remaining: Duration)?
    /// Waits `delay` on the machine's clock before `attempt` of the retried action `action` of
    /// event `number`; a durable machine first records the wait. Throws if the action is
    /// cancelled.
    func waitToRetry(number: UInt64, action: Int, attempt: Int, after delay: Duration) async throws
    /// A retried action of event `number` succeeded after retries: a durable machine forgets the
    /// wait it recorded, so that a replay of the event starts each action at its first attempt.
    func retriesEnded(number: UInt64)
}
