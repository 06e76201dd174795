extension Fragment {
    /// This fragment with the parts of `later` appended: the grammar has already ensured that the
    /// two never both name an event or a target.
    func followed(by later: Fragment) -> Fragment {
        var result = self
        result.events += later.events
        result.target = result.target ?? later.target
        result.clauses += later.clauses
        result.guards += later.guards
        result.actions = result.actions & later.actions
        result.alternative = later.alternative ?? alternative
        result.isOtherwise = isOtherwise || later.isOtherwise
        return result
    }

    func adding(_ actions: Actions<Definition>) -> Fragment {
        var result = self
        result.actions = result.actions & actions
        return result
    }
}

extension Syntax {
    /// A pipe stage that actions can follow. The DSL's own types conform; do not conform your own.
    public protocol ActionAccepting<Definition> {
        /// The machine definition of the schema.
        associatedtype Definition: MachineDefinition
        /// What the stage becomes once actions are attached.
        associatedtype WithActions
        /// Attaches `actions` after those the stage already has.
        func attaching(_ actions: Actions<Definition>) -> WithActions
    }
}

extension Syntax.When: Syntax.ActionAccepting {
    /// See ``Syntax/ActionAccepting/attaching(_:)``.
    public func attaching(_ actions: Actions<Definition>) -> Syntax.WhenActions<Definition> {
        .init(fragment: fragment.adding(actions))
    }
}

extension Syntax.Matching: Syntax.ActionAccepting {
    /// See ``Syntax/ActionAccepting/attaching(_:)``.
    public func attaching(_ actions: Actions<Definition>) -> Syntax.MatchingActions<Definition> {
        .init(fragment: fragment.adding(actions))
    }
}

extension Syntax.MatchingWhen: Syntax.ActionAccepting {
    /// See ``Syntax/ActionAccepting/attaching(_:)``.
    public func attaching(_ actions: Actions<Definition>) -> Syntax.WhenActions<Definition> {
        .init(fragment: fragment.adding(actions))
    }
}

extension Syntax.MatchingThen: Syntax.ActionAccepting {
    /// See ``Syntax/ActionAccepting/attaching(_:)``.
    public func attaching(_ actions: Actions<Definition>) -> Syntax.MatchingThen<Definition> {
        .init(fragment: fragment.adding(actions))
    }
}

extension Syntax.Row: Syntax.ActionAccepting {
    /// See ``Syntax/ActionAccepting/attaching(_:)``.
    public func attaching(_ actions: Actions<Definition>) -> Syntax.Row<Definition> {
        .init(fragment: fragment.adding(actions))
    }
}

/// `when(.coin) | then(.unlocked)`.
public func | <D>(lhs: Syntax.When<D>, rhs: Syntax.Then<D>) -> Syntax.Row<D> {
    .init(fragment: lhs.fragment.followed(by: rhs.fragment))
}

/// `matching(P.a) | when(.coin)`.
public func | <D>(lhs: Syntax.Matching<D>, rhs: Syntax.When<D>) -> Syntax.MatchingWhen<D> {
    .init(fragment: lhs.fragment.followed(by: rhs.fragment))
}

/// `matching(P.a) | then(.unlocked)`, for use inside a `when { }` block.
public func | <D>(lhs: Syntax.Matching<D>, rhs: Syntax.Then<D>) -> Syntax.MatchingThen<D> {
    .init(fragment: lhs.fragment.followed(by: rhs.fragment))
}

/// `matching(P.a) | when(.coin) | then(.unlocked)`.
public func | <D>(lhs: Syntax.MatchingWhen<D>, rhs: Syntax.Then<D>) -> Syntax.Row<D> {
    .init(fragment: lhs.fragment.followed(by: rhs.fragment))
}

/// `… | alarmOff & lock` or `… | [alarmOff, lock]`: attaches a list of actions.
public func | <L: Syntax.ActionAccepting>(lhs: L, rhs: Actions<L.Definition>) -> L.WithActions {
    lhs.attaching(rhs)
}

/// `… | unlock`: attaches a synchronous action that takes no argument.
public func | <L: Syntax.ActionAccepting>(lhs: L, rhs: @escaping @Sendable () throws -> Void) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}

/// `… | { await bank.charge() }`: attaches an asynchronous action that takes no argument.
public func | <L: Syntax.ActionAccepting>(lhs: L, rhs: @escaping @Sendable () async throws -> Void) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}

/// `… | record`: attaches a synchronous action that receives the event.
///
/// A closure literal with one unannotated parameter receives the ``TransitionContext``; annotate
/// it (`{ (event: Event) in … }`) to receive the event instead.
@_disfavoredOverload
public func | <L: Syntax.ActionAccepting>(lhs: L, rhs: @escaping @Sendable (L.Definition.Event) throws -> Void) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}

/// `… | charge`: attaches an asynchronous action that receives the event.
@_disfavoredOverload
public func | <L: Syntax.ActionAccepting>(
    lhs: L, rhs: @escaping @Sendable (L.Definition.Event) async throws -> Void
) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}

/// `… | { context in … }`: attaches a synchronous action that receives the transition context.
public func | <L: Syntax.ActionAccepting>(
    lhs: L, rhs: @escaping @Sendable (TransitionContext<L.Definition>) throws -> Void
) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}

/// `… | { context in await … }`: attaches an asynchronous action that receives the context.
public func | <L: Syntax.ActionAccepting>(
    lhs: L, rhs: @escaping @Sendable (TransitionContext<L.Definition>) async throws -> Void
) -> L.WithActions {
    lhs.attaching(Actions(rhs))
}
