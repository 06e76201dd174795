// Context blocks: a statement followed by a block applies its part to every statement inside.
// Which statements a block accepts is fixed by its `Syntax.BlockShape`, so that a block cannot
// supply a second `when` or `then` to a statement that has one.

extension Syntax.Block {
    init<Inner>(_ context: Fragment<State, Event>, _ rows: () -> Syntax.Block<State, Event, Inner>) {
        self.init(context: context, wrapping: rows())
    }
}

/// `when(.pass) { matching(P.a) | then(.locked) }`: every statement responds to these events.
@_disfavoredOverload
public func when<State, Event: Hashable>(
    _ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingWhen> rows: () -> Syntax.Block<State, Event, Syntax.MissingWhen>
) -> Syntax.Block<State, Event, Syntax.Complete> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: location), rows)
}

/// `when(.pass) { then(.unlocked) { matching(P.a) | smile } }`: statements that still need a `then`.
@_disfavoredOverload
public func when<State, Event: Hashable>(
    _ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<State, Event, Syntax.MissingWhenAndThen>
) -> Syntax.Block<State, Event, Syntax.MissingThen> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: location), rows)
}

/// `when(.coin) { … }` for ``CaseKeyed`` events: every statement responds to these cases.
public func when<State, Event: CaseKeyed>(
    _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingWhen> rows: () -> Syntax.Block<State, Event, Syntax.MissingWhen>
) -> Syntax.Block<State, Event, Syntax.Complete> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: location), rows)
}

/// `when(.coin) { then(.b) { … } }` for ``CaseKeyed`` events: statements that still need a `then`.
public func when<State, Event: CaseKeyed>(
    _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<State, Event, Syntax.MissingWhenAndThen>
) -> Syntax.Block<State, Event, Syntax.MissingThen> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: location), rows)
}

/// `then(.unlocked) { when(.coin) | thankyou }`: every statement moves to this state.
public func then<State, Event>(
    _ state: State, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingThen> rows: () -> Syntax.Block<State, Event, Syntax.MissingThen>
) -> Syntax.Block<State, Event, Syntax.Complete> {
    .init(Syntax.Then<State, Event>(state, fileID: fileID, line: line).fragment, rows)
}

/// `when(.pass) { then(.unlocked) { matching(P.a) | smile } }`: statements that still need a `when`.
public func then<State, Event>(
    _ state: State, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<State, Event, Syntax.MissingWhenAndThen>
) -> Syntax.Block<State, Event, Syntax.MissingWhen> {
    .init(Syntax.Then<State, Event>(state, fileID: fileID, line: line).fragment, rows)
}

/// `matching(P.a) { … }`: every statement is restricted to these predicates too. Nested
/// `matching` blocks are AND-ed.
public func matching<State, Event, Shape, P: MatchingPredicate>(
    _ predicate: P, or others: P..., and all: any MatchingPredicate...,
    fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(clauses: [MatchClause(anyOf: [predicate] + others, allOf: all, location: location)],
                          location: location), rows)
}

/// `condition({ … }) { … }`: every statement is restricted by this condition too.
public func condition<State, Event, Shape>(
    _ condition: @escaping @Sendable () -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    .init(Syntax.Matching<State, Event>(condition: condition, fileID: fileID, line: line).fragment, rows)
}

/// `condition({ $0 == … }) { … }`: every statement is restricted by this condition on the event.
public func condition<State, Event, Shape>(
    _ condition: @escaping @Sendable (Event) -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    .init(Syntax.Matching<State, Event>(condition: condition, fileID: fileID, line: line).fragment, rows)
}

/// `actions(log & audit) { … }`: every statement runs these actions before its own.
public func actions<State, Event, Shape>(
    _ actions: Actions<State, Event>, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    .init(Fragment(actions: actions, location: SourceLocation(fileID, line)), rows)
}

/// `actions(log) { … }`: every statement runs this synchronous action before its own.
public func actions<State, Event, Shape>(
    _ action: @escaping @Sendable () throws -> Void, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    .init(Fragment(actions: Actions(action), location: SourceLocation(fileID, line)), rows)
}

/// `actions(notify) { … }`: every statement runs this asynchronous action before its own.
public func actions<State, Event, Shape>(
    _ action: @escaping @Sendable () async throws -> Void, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<State, Event, Shape> rows: () -> Syntax.Block<State, Event, Shape>
) -> Syntax.Block<State, Event, Shape> {
    .init(Fragment(actions: Actions(action), location: SourceLocation(fileID, line)), rows)
}
