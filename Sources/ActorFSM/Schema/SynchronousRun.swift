/// A transition's synchronous actions (exit, own, entry, with the commit of the new state
/// between own and entry) composed into one closure when the schema is built.
///
/// Why a chain of closures rather than a loop over the lists: calling a closure read out of an
/// array or an enum payload costs a retain and a release of its context per call, which was most
/// of a transition's cost. A closure that calls the closures it captured does not, and neither
/// does calling `run` on an instance borrowed through `Unmanaged` (see ``SchemaStorage/HotTransition``).
@usableFromInline
final class SynchronousRun<State: Sendable, Event: Sendable>: Sendable {
    /// Runs the chain with the event (`nil` for a timeout), a maker of the context for actions
    /// that take it, the commit of the new state, and the count of actions completed so far.
    @usableFromInline
    typealias Chain = @Sendable (
        _ event: Event?, _ context: () -> TransitionContext<State, Event>, _ commit: () -> Void, _ completed: inout Int
    ) throws -> Void

    @usableFromInline let chain: Chain

    /// The chain for `exit`, then `actions`, the commit, then `entry`; `nil` if one of them is
    /// asynchronous.
    init?(exit: Actions<State, Event>, actions: Actions<State, Event>, entry: Actions<State, Event>) {
        guard exit.isSynchronous && actions.isSynchronous && entry.isSynchronous else { return nil }
        var chain: Chain = { _, _, _, _ in }
        for body in entry.bodies.reversed() { chain = Self.link(body, then: chain) }
        let afterCommit = chain
        chain = { event, context, commit, completed in
            commit()
            try afterCommit(event, context, commit, &completed)
        }
        for body in (exit.bodies + actions.bodies).reversed() { chain = Self.link(body, then: chain) }
        self.chain = chain
    }

    /// The chain that runs `body`, counts it, then runs `rest`.
    private static func link(_ body: Actions<State, Event>.Body, then rest: @escaping Chain) -> Chain {
        switch body {
        case .plain(let action):
            return { event, context, commit, completed in
                try action()
                completed += 1
                try rest(event, context, commit, &completed)
            }
        case .event(let action):
            return { event, context, commit, completed in
                guard let event else { throw MissingEventError() }
                try action(event)
                completed += 1
                try rest(event, context, commit, &completed)
            }
        case .context(let action):
            return { event, context, commit, completed in
                try action(context())
                completed += 1
                try rest(event, context, commit, &completed)
            }
        case .asynchronous:
            preconditionFailure("a synchronous run was built from an asynchronous action")
        }
    }
}
