import ActorFSM

extension GeneratedPaths {
    /// Runs every path, in order, on a fresh machine, and reports which transitions fired.
    ///
    /// Each run makes a `ManualClock` and a machine with `making`, whose timers must wait on
    /// that clock: a timeout step advances it. The run sends each step's event with its
    /// context, reads every record the machine publishes (its state tasks' and children's events
    /// included: a step the machine takes by itself counts), and calls `invariant` after each
    /// step with the step's record. It stops the machine at the end of the path, or where the
    /// machine leaves the path: an action that fails, a condition that decides otherwise, a state
    /// task that moves it elsewhere. A transition fired by any run counts as covered.
    ///
    /// - Parameters:
    ///   - making: makes the run's machine; the path tells test doubles what the run is for.
    ///   - invariant: checked after each step; what it throws ends the whole run.
    /// - Returns: what fired and what did not, each with its reason.
    /// - Throws: ``PathFailure`` with the path and step if the invariant throws; what `making` throws.
    public nonisolated(nonsending) func run(
        making: (GeneratedPath<Definition>, ManualClock) async throws -> Machine<Definition>,
        checking invariant: (Machine<Definition>, TransitionRecord<Definition>) async throws -> Void = { _, _ in }
    ) async throws -> PathCoverage<Definition> {
        var ledger = PathLedger(schema, unreachable: unreachable)
        for path in paths {
            let clock = ManualClock()
            let machine = try await making(path, clock)
            var run = await PathRun(path, machine: machine, clock: clock)
            try await run.walk(into: &ledger, checking: invariant)
        }
        return ledger.coverage(pathsRun: paths.count)
    }
}
