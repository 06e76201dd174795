extension Syntax {
    /// `when(.coin)`: the events a transition responds to.
    public struct When<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>

        /// Responds to `event` and to each of `others`, compared by value.
        @_disfavoredOverload
        public init(
            _ event: Event, or others: Event..., fileID: StaticString = #fileID, line: UInt = #line
        ) where Event: Hashable {
            fragment = Fragment(events: ([event] + others).map(EventMatcher.value), location: .init(fileID, line))
        }

        /// Responds to every event whose case key is `key` or one of `others`, whatever its payload.
        public init(
            _ key: Event.CaseKey, or others: Event.CaseKey..., fileID: StaticString = #fileID, line: UInt = #line
        ) where Event: CaseKeyed {
            fragment = Fragment(events: ([key] + others).map(EventMatcher.key), location: .init(fileID, line))
        }

        /// Responds to the state timeout that fires `delay` after the machine enters the state.
        /// See ``after(_:fileID:line:)``.
        public init(after delay: Duration, fileID: StaticString = #fileID, line: UInt = #line) {
            fragment = Fragment(events: [.timeout(delay)], location: .init(fileID, line))
        }
    }

    /// `then(.unlocked)`, or `then()` to stay in the current state.
    public struct Then<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>

        /// Moves to `state`.
        public init(_ state: State, fileID: StaticString = #fileID, line: UInt = #line) {
            fragment = Fragment(target: .state(state), location: .init(fileID, line))
        }

        /// Stays in the current state.
        public init(fileID: StaticString = #fileID, line: UInt = #line) {
            fragment = Fragment(target: .unchanged, location: .init(fileID, line))
        }

        /// Postpones the event: see ``postpone(fileID:line:)``.
        init(postponingAt location: SourceLocation) {
            fragment = Fragment(target: .postpone, location: location)
        }
    }

    /// `matching(Enforcement.weak)` or `condition { … }`: restricts when a transition applies.
    ///
    /// The two are interchangeable in pipes and blocks, as in the Swift FSM guide.
    public struct Matching<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>

        /// Applies only when the event arrives with `predicate` (or one of `others`, all of the
        /// same type) and with every predicate in `all`.
        public init<P: MatchingPredicate>(
            _ predicate: P, or others: P..., and all: any MatchingPredicate...,
            fileID: StaticString = #fileID, line: UInt = #line
        ) {
            let location = SourceLocation(fileID, line)
            fragment = Fragment(clauses: [MatchClause(anyOf: [predicate] + others, allOf: all, location: location)],
                                location: location)
        }

        /// Applies only when `condition` returns `true` at the moment the event is handled.
        public init(condition: @escaping @Sendable () -> Bool, fileID: StaticString = #fileID, line: UInt = #line) {
            let location = SourceLocation(fileID, line)
            fragment = Fragment(guards: [Guard(test: .plain(condition), location: location)],
                                location: location)
        }

        /// Applies only when `condition` returns `true` for the machine's data at the moment the
        /// event is handled: the data as the last completed transition left it.
        @_disfavoredOverload
        public init(
            condition: @escaping @Sendable (Definition.Data) -> Bool, fileID: StaticString = #fileID, line: UInt = #line
        ) {
            let location = SourceLocation(fileID, line)
            fragment = Fragment(guards: [Guard(test: .data(condition), location: location)],
                                location: location)
        }

        /// Applies only when `condition` returns `true` for the event being handled.
        public init(condition: @escaping @Sendable (Event) -> Bool, fileID: StaticString = #fileID, line: UInt = #line) {
            let location = SourceLocation(fileID, line)
            fragment = Fragment(guards: [Guard(test: .event(condition), location: location)], location: location)
        }
    }

    /// `matching(…) | when(…)`: waits for a `then`, or for actions inside a `then { }` block.
    public struct MatchingWhen<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>
    }

    /// `matching(…) | then(…)`, with optional actions: a statement for a `when { }` block.
    public struct MatchingThen<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>
    }

    /// `when(…) | actions`: a statement for a `then { }` block.
    public struct WhenActions<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>
    }

    /// `matching(…) | actions`: a statement for a block that supplies both `when` and `then`.
    public struct MatchingActions<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>
    }

    /// `when(…) | then(…)`, optionally preceded by `matching` and followed by actions: a complete
    /// transition.
    public struct Row<Definition: MachineDefinition>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragment: Fragment<Definition>
    }
}
