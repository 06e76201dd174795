// The DSL as free functions. Each forwards to the `Syntax` type of the same name, so that a table
// reads the same whether it is written here, in a `SyntaxBuilder` type or with type aliases.

/// Defines a state: the transitions out of it, after those of the super states it adopts.
///
/// ```swift
/// define(.locked, adopts: resetable, onEntry: [lock]) {
///     when(.coin) | then(.unlocked)
/// }
/// ```
///
/// `running:` takes ``StateTask``s: operations that run while the machine is in the state.
public func define<Definition: MachineDefinition>(
    _ state: Definition.State, adopts superStates: SuperState<Definition>...,
    onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
    running tasks: StateTask<Definition>..., fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.Complete> rows: () -> Syntax.Block<Definition, Syntax.Complete>
) -> Syntax.Define<Definition> {
    let block = rows()
    return Syntax.Define(state: state, superStates: superStates, onEntry: onEntry, onExit: onExit, tasks: tasks,
                         block: block.reportingEmptiness(at: SourceLocation(fileID, line)),
                         location: SourceLocation(fileID, line))
}

/// Defines a state by the super states it adopts alone: `define(.alarming, adopts: resetable)`.
public func define<Definition: MachineDefinition>(
    _ state: Definition.State, adopts superState: SuperState<Definition>, _ more: SuperState<Definition>...,
    onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
    running tasks: StateTask<Definition>..., fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.Define<Definition> {
    Syntax.Define(state: state, superStates: [superState] + more, onEntry: onEntry, onExit: onExit, tasks: tasks,
                  block: .init(fragments: []), location: SourceLocation(fileID, line))
}

/// The events a transition responds to: `when(.coin)`, `when(.coin, or: .pass)`.
///
/// Also opens a context block: `when(.pass) { matching(P.a) | then(.locked) }`.
@_disfavoredOverload
public func when<Definition: MachineDefinition>(
    _ event: Definition.Event, or others: Definition.Event..., fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.When<Definition> where Definition.Event: Hashable {
    var statement = Syntax.When<Definition>(event, fileID: fileID, line: line)
    statement.fragment.events += others.map(EventMatcher.value)
    return statement
}

/// The event cases a transition responds to, whatever their payload: `when(.coin)`.
public func when<Definition: MachineDefinition>(
    _ key: Definition.Event.CaseKey, or others: Definition.Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.When<Definition> where Definition.Event: CaseKeyed {
    var statement = Syntax.When<Definition>(key, fileID: fileID, line: line)
    statement.fragment.events += others.map(EventMatcher.key)
    return statement
}

/// A state timeout: responds when the machine has stayed `delay` in the state.
///
/// ```swift
/// define(.paymentPending) {
///     when(.paid) | then(.paid)
///     after(.seconds(30)) | then(.cancelled) | refund
/// }
/// ```
///
/// The timeout is armed each time the machine enters the state (on every re-entry under
/// ``EntryExitPolicy/executeAlways``) and cancelled when it leaves. When it fires, it goes through
/// the inbox like any event, with the machine's standing predicates, so `matching` and
/// `condition { }` apply to it too; its record has no event and the origin
/// ``EventOrigin/timeout(after:)``.
public func after<Definition: MachineDefinition>(
    _ delay: Duration, fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.When<Definition> {
    Syntax.When(after: delay, fileID: fileID, line: line)
}

/// The state a transition moves to.
public func then<Definition: MachineDefinition>(_ state: Definition.State, fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Definition> {
    Syntax.Then(state, fileID: fileID, line: line)
}

/// Postpones the event until the machine's state next changes, when it is tried again.
///
/// ```swift
/// define(.packing) {
///     when(.ship) | postpone()              // shipping waits until packing is over
///     when(.packed) | then(.ready)
/// }
/// ```
///
/// A postponed event runs nothing and gets no record yet. When a transition changes the state
/// (not a `then()`, not a change of data alone), every postponed event is tried again, in the
/// order they arrived, before the events queued; one postponed again waits for the next change.
/// A machine holds at most ``MachineConfiguration/postponedCapacity`` of them. An event's single
/// record, when it is finally handled, counts how often it was postponed
/// (``TransitionRecord/postponements``).
public func postpone<Definition: MachineDefinition>(fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Definition> {
    Syntax.Then(postponingAt: SourceLocation(fileID, line))
}

/// Stays in the current state: `when(.coin) | then() | thankyou`.
public func then<Definition: MachineDefinition>(fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Definition> {
    Syntax.Then(fileID: fileID, line: line)
}

/// Restricts a transition to events that arrive with these predicates.
///
/// `matching(A.x, or: A.y, and: B.x, C.x)` means (A.x or A.y) and B.x and C.x. `or:` takes cases
/// of the first predicate's type only; `and:` takes one case of each other type.
public func matching<Definition: MachineDefinition, P: MatchingPredicate>(
    _ predicate: P, or others: P..., and all: any MatchingPredicate...,
    fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.Matching<Definition> {
    var statement = Syntax.Matching<Definition>(predicate, fileID: fileID, line: line)
    statement.fragment.clauses = [MatchClause(anyOf: [predicate] + others, allOf: all, location: SourceLocation(fileID, line))]
    return statement
}

/// Restricts a transition to moments when `condition` returns `true`.
///
/// Conditions are opaque to the schema: two transitions that differ only by their conditions
/// clash, exactly as if the conditions were not there.
public func condition<Definition: MachineDefinition>(
    fileID: StaticString = #fileID, line: UInt = #line, _ condition: @escaping @Sendable () -> Bool
) -> Syntax.Matching<Definition> {
    Syntax.Matching(condition: condition, fileID: fileID, line: line)
}

/// Restricts a transition to events for which `condition` returns `true`; useful to look at a payload.
public func condition<Definition: MachineDefinition>(
    fileID: StaticString = #fileID, line: UInt = #line, _ condition: @escaping @Sendable (Definition.Event) -> Bool
) -> Syntax.Matching<Definition> {
    Syntax.Matching(condition: condition, fileID: fileID, line: line)
}

/// Restricts a transition to moments when `condition` returns `true` for the machine's data, as
/// the last completed transition left it. Name the data's type in the closure: with `$0`, the
/// compiler tries the event's form first, and a row takes long to type-check.
///
/// ```swift
/// condition { (order: Purchase) in order.attempts < 3 } | when(.declined) | then(.paymentPending)
/// ```
@_disfavoredOverload
public func condition<Definition: MachineDefinition>(
    fileID: StaticString = #fileID, line: UInt = #line, _ condition: @escaping @Sendable (Definition.Data) -> Bool
) -> Syntax.Matching<Definition> {
    Syntax.Matching(condition: condition, fileID: fileID, line: line)
}

/// Marks transitions that replace those inherited from super states with the same event and
/// predicates.
///
/// ```swift
/// define(.locked, adopts: s1) {
///     override { when(.coin) | then(.locked) | beGrumpy }
/// }
/// ```
public func override<Definition: MachineDefinition>(
    fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Syntax.Complete> _ rows: () -> Syntax.Block<Definition, Syntax.Complete>
) -> Syntax.Block<Definition, Syntax.Complete> {
    Syntax.Block(Fragment(isOverride: true, location: SourceLocation(fileID, line)), rows)
}
