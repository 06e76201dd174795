// Context blocks: a statement followed by a block applies its part to every statement inside.
// Which statements a block accepts is fixed by its `Syntax.BlockShape`, so that a block cannot
// supply a second `when` or `then` to a statement that has one.

extension Syntax.Block {
    init<Inner>(_ context: Fragment<Definition>, _ rows: () -> Syntax.Block<Definition, Inner>) {
        self.init(context: context, wrapping: rows())
    }
}

/// `when(.pass) { matching(P.a) | then(.locked) }`: every statement responds to these events.
@_disfavoredOverload
public func when<Definition: MachineDefinition>(
    _ event: Definition.Event, or others: Definition.Event..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingWhen> rows: () -> Syntax.Block<Definition, Syntax.MissingWhen>
) -> Syntax.Block<Definition, Syntax.Complete> where Definition.Event: Hashable {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: location), rows)
}

/// `when(.pass) { then(.unlocked) { matching(P.a) | smile } }`: statements that still need a `then`.
@_disfavoredOverload
public func when<Definition: MachineDefinition>(
    _ event: Definition.Event, or others: Definition.Event..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Definition, Syntax.MissingWhenAndThen>
) -> Syntax.Block<Definition, Syntax.MissingThen> where Definition.Event: Hashable {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: location), rows)
}

/// `when(.coin) { … }` for ``CaseKeyed`` events: every statement responds to these cases.
public func when<Definition: MachineDefinition>(
    _ key: Definition.Event.CaseKey, or others: Definition.Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingWhen> rows: () -> Syntax.Block<Definition, Syntax.MissingWhen>
) -> Syntax.Block<Definition, Syntax.Complete> where Definition.Event: CaseKeyed {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: location), rows)
}

/// `when(.coin) { then(.b) { … } }` for ``CaseKeyed`` events: statements that still need a `then`.
public func when<Definition: MachineDefinition>(
    _ key: Definition.Event.CaseKey, or others: Definition.Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Definition, Syntax.MissingWhenAndThen>
) -> Syntax.Block<Definition, Syntax.MissingThen> where Definition.Event: CaseKeyed {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: location), rows)
}

/// `then(.unlocked) { when(.coin) | thankyou }`: every statement moves to this state.
public func then<Definition: MachineDefinition>(
    _ state: Definition.State, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingThen> rows: () -> Syntax.Block<Definition, Syntax.MissingThen>
) -> Syntax.Block<Definition, Syntax.Complete> {
    .init(Syntax.Then<Definition>(state, fileID: fileID, line: line).fragment, rows)
}

/// `when(.pass) { then(.unlocked) { matching(P.a) | smile } }`: statements that still need a `when`.
public func then<Definition: MachineDefinition>(
    _ state: Definition.State, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Definition, Syntax.MissingWhenAndThen>
) -> Syntax.Block<Definition, Syntax.MissingWhen> {
    .init(Syntax.Then<Definition>(state, fileID: fileID, line: line).fragment, rows)
}

/// `matching(P.a) { … }`: every statement is restricted to these predicates too. Nested
/// `matching` blocks are AND-ed.
public func matching<Definition: MachineDefinition, Shape, P: MatchingPredicate>(
    _ predicate: P, or others: P..., and all: any MatchingPredicate...,
    fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    let location = SourceLocation(fileID, line)
    return .init(Fragment(clauses: [MatchClause(anyOf: [predicate] + others, allOf: all, location: location)],
                          location: location), rows)
}

/// `condition({ … }) { … }`: every statement is restricted by this condition too.
public func condition<Definition: MachineDefinition, Shape>(
    _ condition: @escaping @Sendable () -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Syntax.Matching<Definition>(condition: condition, fileID: fileID, line: line).fragment, rows)
}

/// `condition({ $0 == … }) { … }`: every statement is restricted by this condition on the event.
public func condition<Definition: MachineDefinition, Shape>(
    _ condition: @escaping @Sendable (Definition.Event) -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Syntax.Matching<Definition>(condition: condition, fileID: fileID, line: line).fragment, rows)
}

/// `condition({ (data: Data) in … }) { … }`: every statement is restricted by this condition on
/// the machine's data.
@_disfavoredOverload
public func condition<Definition: MachineDefinition, Shape>(
    _ condition: @escaping @Sendable (Definition.Data) -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Syntax.Matching<Definition>(condition: condition, fileID: fileID, line: line).fragment, rows)
}

/// `actions(log & audit) { … }`: every statement runs these actions before its own.
public func actions<Definition: MachineDefinition, Shape>(
    _ actions: Actions<Definition>, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Fragment(actions: actions, location: SourceLocation(fileID, line)), rows)
}

/// `actions(log) { … }`: every statement runs this synchronous action before its own.
public func actions<Definition: MachineDefinition, Shape>(
    _ action: @escaping @Sendable () throws -> Void, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Fragment(actions: Actions(action), location: SourceLocation(fileID, line)), rows)
}

/// `actions(notify) { … }`: every statement runs this asynchronous action before its own.
public func actions<Definition: MachineDefinition, Shape>(
    _ action: @escaping @Sendable () async throws -> Void, fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    .init(Fragment(actions: Actions(action), location: SourceLocation(fileID, line)), rows)
}
