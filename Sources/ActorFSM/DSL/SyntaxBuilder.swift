/// Gives a machine definition the DSL as methods, with its types fixed.
///
/// A conforming type is a ``MachineDefinition``; inside it, `SuperState { … }` needs no type
/// arguments:
///
/// ```swift
/// final class Turnstile: SyntaxBuilder {
///     enum State: Hashable { case locked, unlocked }
///     enum Event: Hashable { case coin, pass, reset }
///
///     func makeSchema() throws -> Schema<Turnstile> {
///         try Schema(initial: .locked) {
///             let resetable = SuperState { when(.reset) | then(.locked) }
///             define(.locked, adopts: resetable) { when(.coin) | then(.unlocked) }
///             define(.unlocked, adopts: resetable) { when(.pass) | then(.locked) }
///         }
///     }
/// }
/// ```
public protocol SyntaxBuilder: MachineDefinition {}

extension SyntaxBuilder {
    /// A super state of this type's schema.
    public typealias SuperState = ActorFSM.SuperState<Self>

    /// See ``define(_:adopts:onEntry:onExit:running:fileID:line:rows:)``.
    public func define(
        _ state: State, adopts superStates: SuperState...,
        onEntry: Actions<Self> = Actions<Self>(), onExit: Actions<Self> = Actions<Self>(),
        running tasks: StateTask<Self>..., fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.Complete> rows: () -> Syntax.Block<Self, Syntax.Complete>
    ) -> Syntax.Define<Self> {
        let location = SourceLocation(fileID, line)
        return Syntax.Define(state: state, superStates: superStates, onEntry: onEntry, onExit: onExit, tasks: tasks,
                             block: rows().reportingEmptiness(at: location), location: location)
    }

    /// See ``define(_:adopts:_:onEntry:onExit:running:fileID:line:)``.
    public func define(
        _ state: State, adopts superState: SuperState, _ more: SuperState...,
        onEntry: Actions<Self> = Actions<Self>(), onExit: Actions<Self> = Actions<Self>(),
        running tasks: StateTask<Self>..., fileID: StaticString = #fileID, line: UInt = #line
    ) -> Syntax.Define<Self> {
        Syntax.Define(state: state, superStates: [superState] + more, onEntry: onEntry, onExit: onExit, tasks: tasks,
                      block: .init(fragments: []), location: SourceLocation(fileID, line))
    }

    /// See ``then(_:fileID:line:)``.
    public func then(_ state: State, fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Self> {
        Syntax.Then(state, fileID: fileID, line: line)
    }

    /// See ``then(fileID:line:)``.
    public func then(fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Self> {
        Syntax.Then(fileID: fileID, line: line)
    }

    /// See ``postpone(fileID:line:)``.
    public func postpone(fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.Then<Self> {
        Syntax.Then(postponingAt: SourceLocation(fileID, line))
    }

    /// See ``after(_:fileID:line:)``.
    public func after(_ delay: Duration, fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.When<Self> {
        Syntax.When(after: delay, fileID: fileID, line: line)
    }
}

extension SyntaxBuilder where Event: Hashable {
    /// See ``when(_:or:fileID:line:)-(Self.Event,_,_,_)``.
    @_disfavoredOverload
    public func when(_ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line) -> Syntax.When<Self> {
        var statement = Syntax.When<Self>(event, fileID: fileID, line: line)
        statement.fragment.events += others.map(EventMatcher.value)
        return statement
    }
}

extension SyntaxBuilder where Event: CaseKeyed {
    /// See ``when(_:or:fileID:line:)-(Self.Event.CaseKey,_,_,_)``.
    public func when(
        _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line
    ) -> Syntax.When<Self> {
        var statement = Syntax.When<Self>(key, fileID: fileID, line: line)
        statement.fragment.events += others.map(EventMatcher.key)
        return statement
    }
}

// Member lookup hides the free functions of the same name, so a conforming type needs the
// block forms of `when` and `then` as methods too.

extension SyntaxBuilder {
    /// See ``then(_:fileID:line:rows:)->Syntax.Block<Self,Syntax.MissingWhen>``: a `then` block of statements
    /// that need a `when`.
    public func then(
        _ state: State, fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingThen> rows: () -> Syntax.Block<Self, Syntax.MissingThen>
    ) -> Syntax.Block<Self, Syntax.Complete> {
        .init(Syntax.Then<Self>(state, fileID: fileID, line: line).fragment, rows)
    }

    /// A `then` block inside a `when` block.
    public func then(
        _ state: State, fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Self, Syntax.MissingWhenAndThen>
    ) -> Syntax.Block<Self, Syntax.MissingWhen> {
        .init(Syntax.Then<Self>(state, fileID: fileID, line: line).fragment, rows)
    }
}

extension SyntaxBuilder where Event: Hashable {
    /// A `when` block of statements that need a `when`.
    @_disfavoredOverload
    public func when(
        _ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingWhen> rows: () -> Syntax.Block<Self, Syntax.MissingWhen>
    ) -> Syntax.Block<Self, Syntax.Complete> {
        .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: SourceLocation(fileID, line)), rows)
    }

    /// A `when` block of statements that need both a `when` and a `then`.
    @_disfavoredOverload
    public func when(
        _ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Self, Syntax.MissingWhenAndThen>
    ) -> Syntax.Block<Self, Syntax.MissingThen> {
        .init(Fragment(events: ([event] + others).map(EventMatcher.value), location: SourceLocation(fileID, line)), rows)
    }
}

extension SyntaxBuilder where Event: CaseKeyed {
    /// A `when` block of statements that need a `when`, for ``CaseKeyed`` events.
    public func when(
        _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingWhen> rows: () -> Syntax.Block<Self, Syntax.MissingWhen>
    ) -> Syntax.Block<Self, Syntax.Complete> {
        .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: SourceLocation(fileID, line)), rows)
    }

    /// A `when` block of statements that need both a `when` and a `then`, for ``CaseKeyed`` events.
    public func when(
        _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Self, Syntax.MissingWhenAndThen> rows: () -> Syntax.Block<Self, Syntax.MissingWhenAndThen>
    ) -> Syntax.Block<Self, Syntax.MissingThen> {
        .init(Fragment(events: ([key] + others).map(EventMatcher.key), location: SourceLocation(fileID, line)), rows)
    }
}
