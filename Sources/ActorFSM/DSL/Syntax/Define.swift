extension Syntax {
    /// `define(.locked) { … }`: the transitions out of one state, its entry and exit actions and
    /// the super states it adopts.
    public struct Define<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        let state: State
        let superStates: [SuperState<Definition>]
        let onEntry: Actions<Definition>
        let onExit: Actions<Definition>
        let tasks: [StateTask<Definition>]
        let block: Block<Definition, Complete>
        let location: SourceLocation

        /// Defines `state` with the transitions of `rows`, after those of `superStates`.
        ///
        /// - Parameters:
        ///   - state: the state being defined.
        ///   - superStates: super states whose transitions and entry and exit actions apply too.
        ///   - onEntry: actions run when the machine enters `state`.
        ///   - onExit: actions run when the machine leaves `state`.
        ///   - tasks: operations run while the machine is in `state`; see ``StateTask``.
        ///   - fileID: where the statement is written, for diagnostics; leave the default.
        ///   - line: the line it is written on, likewise.
        ///   - rows: the transitions out of `state`.
        public init(
            _ state: State, adopts superStates: SuperState<Definition>...,
            onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
            running tasks: StateTask<Definition>..., fileID: StaticString = #fileID, line: UInt = #line,
            @RowBuilder<Definition, Complete> rows: () -> Block<Definition, Complete>
        ) {
            let location = SourceLocation(fileID, line)
            let block = rows()
            self.init(state: state, superStates: superStates, onEntry: onEntry, onExit: onExit, tasks: tasks,
                      block: block.reportingEmptiness(at: location),
                      location: location)
        }

        /// Defines `state` with the transitions of the super states it adopts, and no block.
        public init(
            _ state: State, adopts superState: SuperState<Definition>, _ more: SuperState<Definition>...,
            onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
            running tasks: StateTask<Definition>..., fileID: StaticString = #fileID, line: UInt = #line
        ) {
            self.init(state: state, superStates: [superState] + more, onEntry: onEntry, onExit: onExit, tasks: tasks,
                      block: Block(fragments: []), location: SourceLocation(fileID, line))
        }

        init(
            state: State, superStates: [SuperState<Definition>], onEntry: Actions<Definition>,
            onExit: Actions<Definition>, tasks: [StateTask<Definition>] = [], block: Block<Definition, Complete>,
            location: SourceLocation
        ) {
            self.state = state
            self.superStates = superStates
            self.onEntry = onEntry
            self.onExit = onExit
            self.tasks = tasks
            self.block = block
            self.location = location
        }
    }

    /// Collects the `define` statements of a schema.
    @resultBuilder
    public enum TableBuilder<Definition: MachineDefinition> {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        /// One `define` statement.
        public static func buildExpression(_ definition: Define<Definition>) -> [Define<Definition>] {
            [definition]
        }

        /// Joins the `define` statements of the table.
        public static func buildBlock(_ parts: [Define<Definition>]...) -> [Define<Definition>] {
            parts.flatMap { $0 }
        }
    }
}

/// A reusable group of transitions and entry and exit actions that `define` statements and other
/// super states adopt.
///
/// ```swift
/// let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) }
/// define(.alarming, adopts: resetable, onEntry: [alarmOn], onExit: [alarmOff])
/// ```
///
/// Inside a schema's builder, write the type arguments (`SuperState<Turnstile>`) when the super
/// state is bound to a `let`: Swift infers a `let`'s type from its initializer alone. Passed
/// directly to `adopts:`, or declared inside a ``SyntaxBuilder`` type, plain `SuperState { … }`
/// suffices.
public struct SuperState<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// Shared by every copy of this super state, and by no other: a state that adopts it more
    /// than once (directly, or through several super states) gets its contents once.
    let identity = SuperStateIdentity()
    let superStates: [SuperState]
    let onEntry: Actions<Definition>
    let onExit: Actions<Definition>
    let block: Syntax.Block<Definition, Syntax.Complete>
    let location: SourceLocation

    /// A super state with the transitions of `rows`, after those of the super states it adopts.
    public init(
        adopts superStates: SuperState...,
        onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
        fileID: StaticString = #fileID, line: UInt = #line,
        @Syntax.RowBuilder<Definition, Syntax.Complete> rows: () -> Syntax.Block<Definition, Syntax.Complete>
    ) {
        let location = SourceLocation(fileID, line)
        let block = rows()
        self.superStates = superStates
        self.onEntry = onEntry
        self.onExit = onExit
        self.block = block.reportingEmptiness(at: location)
        self.location = location
    }

    /// A super state that combines the super states it adopts, in order.
    public init(
        adopts superState: SuperState, _ more: SuperState...,
        onEntry: Actions<Definition> = Actions<Definition>(), onExit: Actions<Definition> = Actions<Definition>(),
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        self.superStates = [superState] + more
        self.onEntry = onEntry
        self.onExit = onExit
        self.block = .init(fragments: [])
        self.location = SourceLocation(fileID, line)
    }
}

/// The identity of a ``SuperState`` value and its copies: two super states written alike, or
/// made by one function, are still two.
final class SuperStateIdentity: Sendable {
    init() {}
}
