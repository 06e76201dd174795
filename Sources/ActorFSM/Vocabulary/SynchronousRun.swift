/// A transition's synchronous actions composed, when the schema is built, into one closure for
/// those that run before the machine enters the new state (exit, own) and one for those after (entry).
///
/// Why a chain of closures rather than a loop over the lists: calling a closure read out of an
/// array or an enum payload costs a retain and a release of its context per call, which was most
/// of a transition's cost. A closure that calls the closures it captured does not, and neither
/// does calling `run` on an instance ``Borrowed`` from the schema (see `ActionTable.HotTransition`).
///
/// The chains are made where the schema is built, in code that is not specialized for the
/// definition's types, so a chain hands a ``TransitionContext`` on through its value witnesses.
/// A transition whose actions take the context runs them from the lists instead, with
/// ``run(event:context:commit:counting:)``, in code specialized where the machine runs.
@usableFromInline
final class SynchronousRun<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    /// Runs actions with the event (`nil` for a timeout), a maker of the context for actions that
    /// take it, and the count of actions completed so far.
    @usableFromInline
    typealias Chain = @Sendable (
        _ event: Event?, _ context: () -> TransitionContext<Definition>, _ completed: inout Int
    ) throws -> Void

    /// The exit actions, then the transition's own: run before the machine enters the new state.
    @usableFromInline let beforeCommit: Chain?
    /// The entry actions: run after the commit.
    @usableFromInline let afterCommit: Chain?
    /// The exit actions, then the transition's own, as a list.
    @usableFromInline let beforeCommitBodies: [Actions<Definition>.Body]
    /// The entry actions, as a list.
    @usableFromInline let afterCommitBodies: [Actions<Definition>.Body]

    /// The chains for `exit` and `actions`, and for `entry`; `nil` if one of them is asynchronous.
    init?(exit: Actions<Definition>, actions: Actions<Definition>, entry: Actions<Definition>) {
        guard exit.isSynchronous && actions.isSynchronous && entry.isSynchronous else { return nil }
        beforeCommitBodies = exit.bodies + actions.bodies
        afterCommitBodies = entry.bodies
        beforeCommit = Self.chain(beforeCommitBodies)
        afterCommit = Self.chain(afterCommitBodies)
    }

    /// Runs the lists around `commit`, handing every action that takes it the same `context`.
    @inlinable
    func run(
        event: Event?, context: TransitionContext<Definition>, commit: () -> Void, counting completed: inout Int
    ) throws {
        try Self.run(beforeCommitBodies, event: event, context: context, counting: &completed)
        commit()
        try Self.run(afterCommitBodies, event: event, context: context, counting: &completed)
    }

    @inlinable
    static func run(
        _ bodies: [Actions<Definition>.Body], event: Event?, context: TransitionContext<Definition>,
        counting completed: inout Int
    ) throws {
        for body in bodies {
            switch body {
            case .plain(let action): try action()
            case .event(let action):
                guard let event else { throw MissingEventError() }
                try action(event)
            case .context(let action): try action(context)
            case .asynchronous, .retried: preconditionFailure("a synchronous run holds an asynchronous action")
            }
            completed += 1
        }
    }

    /// Runs the chains around `commit`.
    @inlinable
    func run(
        event: Event?, context: () -> TransitionContext<Definition>, commit: () -> Void, counting completed: inout Int
    ) throws {
        try beforeCommit?(event, context, &completed)
        commit()
        try afterCommit?(event, context, &completed)
    }

    /// One closure that runs `bodies` in order, or `nil` if there are none.
    private static func chain(_ bodies: [Actions<Definition>.Body]) -> Chain? {
        var chain: Chain?
        for body in bodies.reversed() { chain = link(body, then: chain) }
        return chain
    }

    /// The chain that runs `body`, counts it, then runs `rest`.
    private static func link(_ body: Actions<Definition>.Body, then rest: Chain?) -> Chain {
        switch (body, rest) {
        case (.plain(let action), nil):
            return { _, _, completed in
                try action()
                completed += 1
            }
        case (.plain(let action), let rest?):
            return { event, context, completed in
                try action()
                completed += 1
                try rest(event, context, &completed)
            }
        case (.event(let action), nil):
            return { event, _, completed in
                guard let event else { throw MissingEventError() }
                try action(event)
                completed += 1
            }
        case (.event(let action), let rest?):
            return { event, context, completed in
                guard let event else { throw MissingEventError() }
                try action(event)
                completed += 1
                try rest(event, context, &completed)
            }
        case (.context(let action), nil):
            return { _, context, completed in
                try action(context())
                completed += 1
            }
        case (.context(let action), let rest?):
            return { event, context, completed in
                try action(context())
                completed += 1
                try rest(event, context, &completed)
            }
        case (.asynchronous, _), (.retried, _):
            preconditionFailure("a synchronous run was built from an asynchronous action")
        }
    }
}
