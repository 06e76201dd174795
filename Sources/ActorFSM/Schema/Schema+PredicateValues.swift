/// ``Schema/resolve(_:in:predicates:)`` with the predicates written out:
/// `resolve(.pass, in: .locked, predicates: Enforcement.weak)`.
///
/// One, two and three predicates have overloads of their own, specialized where they are
/// called (see ``Machine/send(_:predicates:)``); more predicates take the variadic form.
extension Schema {
    /// Finds what `event` does in `state` with one predicate.
    @inlinable
    public func resolve<P: MatchingPredicate>(_ event: Event, in state: State, predicates: P) -> Resolution<Definition>
    where Definition.Data == Void {
        resolve(event, in: state, predicates: PredicateContext(predicates))
    }

    /// Finds what `event` does in `state` with two predicates.
    @inlinable
    public func resolve<P1: MatchingPredicate, P2: MatchingPredicate>(
        _ event: Event, in state: State, predicates first: P1, _ second: P2
    ) -> Resolution<Definition>
    where Definition.Data == Void {
        resolve(event, in: state, predicates: PredicateContext(first, second))
    }

    /// Finds what `event` does in `state` with three predicates.
    @inlinable
    public func resolve<P1: MatchingPredicate, P2: MatchingPredicate, P3: MatchingPredicate>(
        _ event: Event, in state: State, predicates first: P1, _ second: P2, _ third: P3
    ) -> Resolution<Definition>
    where Definition.Data == Void {
        resolve(event, in: state, predicates: PredicateContext(first, second, third))
    }

    /// Finds what `event` does in `state` with any number of predicates.
    public func resolve<each P: MatchingPredicate>(
        _ event: Event, in state: State, predicates: repeat each P
    ) -> Resolution<Definition>
    where Definition.Data == Void {
        resolve(event, in: state, predicates: PredicateContext(repeat each predicates))
    }
}
