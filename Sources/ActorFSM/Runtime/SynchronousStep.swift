// Running a transition's synchronous actions: the runtime's part of the core step. The schema
// finds transitions and holds their composed actions (`SynchronousRun`); running them is here.

extension ActionTable {
    /// Runs the synchronous exit, own and entry actions of `transition`, calling `commit`
    /// between the own and the entry actions. The context is built once, and only if an action
    /// takes it.
    @inlinable
    func runSynchronously(
        _ transition: HotTransition, event: Event?, counting completed: inout Int,
        context makeContext: () -> TransitionContext<Definition>, commit: () -> Void
    ) throws {
        guard let run = transition.synchronousRun else { preconditionFailure("the transition has asynchronous actions") }
        try run.withObject { run in
            if transition.readsContext {
                try run.run(event: event, context: makeContext(), commit: commit, counting: &completed)
            } else {
                try run.run(event: event, context: makeContext, commit: commit, counting: &completed)
            }
        }
    }
}

extension Schema {
    /// The synchronous core step: finds the transition, runs its exit, transition and entry
    /// actions and returns the new state's id: the table and the actions without a machine, which
    /// the benchmarks measure and the core's tests drive (through the `Benchmarks` SPI); a context an action reads names the machine `id` and
    /// holds `data` (made for the step, so what the actions write to it is lost).
    ///
    /// - Returns: the new state id; `stateID` itself if nothing fired, or if the transition has
    ///   an asynchronous action (then nothing runs).
    /// - Throws: what an action throws.
    @inlinable
    @_spi(Benchmarks) public func step(
        _ stateID: Int32, _ event: Event, _ predicates: PredicateContext, id: ID, data: Definition.Data
    ) throws -> Int32 {
        let storage = self.storage
        guard case .fires(let index) = storage.table.lookup(state: stateID, event: event, predicates: predicates, data: data) else {
            return stateID
        }
        let transition = storage.actions.hot[Int(index)]
        guard !transition.runsNothing else { return transition.target }
        guard transition.isSynchronous else { return stateID }
        var completed = 0
        try storage.actions.runSynchronously(transition, event: event, counting: &completed, context: {
            TransitionContext(event: event, source: storage.states[Int(stateID)],
                              target: storage.states[Int(transition.target)], predicates: predicates, id: id, data: data)
        }, commit: {})
        return transition.target
    }
}
