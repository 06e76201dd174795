/// ``Machine/send(_:predicates:)`` with the predicates written out:
/// `send(.pass, predicates: Enforcement.weak)`.
///
/// One, two and three predicates have overloads of their own, specialized for the predicates'
/// types where they are called, so that the context is made without allocating or searching.
/// More predicates take the variadic form.
extension Machine {
    /// Sends `event` with one predicate; see ``send(_:predicates:)``.
    @discardableResult
    @inlinable
    public func send<P: MatchingPredicate>(_ event: Event, predicates: P) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(predicates))
    }

    /// Sends `event` with two predicates; see ``send(_:predicates:)-(_,PredicateContext?)``.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate>(
        _ event: Event, predicates first: P1, _ second: P2
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(first, second))
    }

    /// Sends `event` with three predicates; see ``send(_:predicates:)-(_,PredicateContext?)``.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate, P3: MatchingPredicate>(
        _ event: Event, predicates first: P1, _ second: P2, _ third: P3
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(first, second, third))
    }

    /// Sends `event` with any number of predicates; see ``send(_:predicates:)``.
    @discardableResult
    public func send<each P: MatchingPredicate>(
        _ event: Event, predicates: repeat each P
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(repeat each predicates))
    }
}
