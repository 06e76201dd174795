/// ``Supervisor/send(to:_:predicates:)`` with the predicates written out:
/// `send(to: 42, .pay, predicates: Channel.web)`.
///
/// One, two and three predicates have overloads of their own, specialized where they are
/// called (see ``Machine/send(_:predicates:)``); more predicates take the variadic form.
extension Supervisor {
    /// Sends `event` with one predicate to the machine under `id`.
    @discardableResult
    @inlinable
    public func send<P: MatchingPredicate>(
        to id: ID, _ event: Event, predicates: P
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        try await send(to: id, event, predicates: PredicateContext(predicates))
    }

    /// Sends `event` with two predicates to the machine under `id`.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate>(
        to id: ID, _ event: Event, predicates first: P1, _ second: P2
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        try await send(to: id, event, predicates: PredicateContext(first, second))
    }

    /// Sends `event` with three predicates to the machine under `id`.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate, P3: MatchingPredicate>(
        to id: ID, _ event: Event, predicates first: P1, _ second: P2, _ third: P3
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        try await send(to: id, event, predicates: PredicateContext(first, second, third))
    }

    /// Sends `event` with any number of predicates to the machine under `id`.
    @discardableResult
    public func send<each P: MatchingPredicate>(
        to id: ID, _ event: Event, predicates: repeat each P
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        try await send(to: id, event, predicates: PredicateContext(repeat each predicates))
    }
}
