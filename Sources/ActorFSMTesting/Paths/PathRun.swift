import ActorFSM

/// One run of a ``GeneratedPath`` on a fresh machine: it gives the machine each step's input,
/// reads every record the machine publishes meanwhile (a state task's and a child's events
/// included), and notes in a ``PathLedger`` what fired.
struct PathRun<Definition: MachineDefinition> {
    typealias Record = TransitionRecord<Definition>

    /// What a step came to.
    enum StepOutcome {
        /// The step's transition fired, by the step's input or by the machine itself.
        case fired(Record)
        /// It did not; the path ends here.
        case missed(UncoveredTransition<Definition>.Reason)
    }

    let path: GeneratedPath<Definition>
    let machine: Machine<Definition>
    let clock: ManualClock
    private var records: Subscription<Record>.Iterator

    /// A run of `path` on `machine`, whose timers wait on `clock`.
    init(_ path: GeneratedPath<Definition>, machine: Machine<Definition>, clock: ManualClock) async {
        self.path = path
        self.machine = machine
        self.clock = clock
        records = await machine.records().makeAsyncIterator()
    }

    /// Takes every step, checking `invariant` after each that fired; stops the machine at the end,
    /// or where the machine leaves the path, and credits every record it published.
    nonisolated(nonsending) mutating func walk(
        into ledger: inout PathLedger<Definition>,
        checking invariant: (Machine<Definition>, Record) async throws -> Void
    ) async throws {
        let start = await firstStep(into: &ledger)
        for (number, step) in path.steps.enumerated().dropFirst(start) {
            switch await take(step, into: &ledger) {
            case .fired(let record):
                ledger.stepsRun += 1
                do {
                    try await invariant(machine, record)
                } catch {
                    await finish(into: &ledger)
                    throw PathFailure(path: "\(path)", step: number + 1, error: error)
                }
            case .missed(let reason):
                ledger.missed(path.steps[number...], because: reason)
                await finish(into: &ledger)
                return
            }
        }
        await finish(into: &ledger)
    }

    /// Where the run starts: a state task of the initial state may have moved the machine before
    /// the run subscribed to its records. If it is where the first step leads, and that step's
    /// transition is the only way there, the machine took it: it is credited, and the run starts
    /// at the second step. Otherwise the run has nothing to take.
    nonisolated(nonsending) private mutating func firstStep(into ledger: inout PathLedger<Definition>) async -> Int {
        guard let first = path.steps.first else { return 0 }
        let state = await machine.state
        if state == first.transition.source { return 0 }
        if state == first.transition.target, ledger.soleTransition(from: first.transition.source, to: state) == first.index {
            ledger.credit(first.index)
            return 1
        }
        ledger.missed(path.steps[...], because: .diverged("path \(path.index): the machine was in \(state) before its first step"))
        return path.steps.count
    }

    /// Gives the machine `step`'s input, and reads what it did.
    nonisolated(nonsending) private mutating func take(_ step: PathStep<Definition>, into ledger: inout PathLedger<Definition>) async -> StepOutcome {
        switch step.input {
        case .event(let event, let predicates):
            let record: Record
            do {
                record = try await machine.send(event, predicates: predicates)
            } catch {
                return .missed(.diverged("sending \(event) failed: \(error)"))
            }
            let taken = await read(into: &ledger) { $0.sequenceNumber >= record.sequenceNumber }
            return outcome(of: record, for: step, takenBefore: taken, ledger: ledger)
        case .timeout(let duration, _):
            return await wait(for: duration, step: step, into: &ledger)
        }
    }

    /// Advances the clock for `step`'s timeout, and reads what the machine did.
    nonisolated(nonsending) private mutating func wait(
        for duration: Duration, step: PathStep<Definition>, into ledger: inout PathLedger<Definition>
    ) async -> StepOutcome {
        let source = step.transition.source
        // A state task or child may have moved the machine on: then no timer of `source` is armed.
        guard await machine.state == source else {
            return .missed(.diverged("path \(path.index), meant to fire \(step), found the machine elsewhere"))
        }
        // Every deadline the state armed is at most `duration` from now: the state was entered at
        // the latest now, and the clock moves only here.
        clock.advance(by: duration)
        // Under `executeAlways`, a transition back into the state arms its timeouts again, from
        // the advanced clock: the awaited one is then due later than the clock reads.
        let rearms = machine.schema.entryExitPolicy == .executeAlways
        let ends = { (record: Record) -> Bool in
            record.source != source || record.origin.timeout == duration || record.target != source
                || (rearms && record.outcome.isTransitioned)
        }
        let taken = await read(into: &ledger, until: ends)
        guard let record = taken.last, ends(record) else { return .missed(.diverged("the machine stopped before \(step)")) }
        if record.origin.timeout != duration && record.source == source && record.target == source {
            return .missed(.diverged("path \(path.index), meant to fire \(step), got \(record) first, which armed the state's timeouts again"))
        }
        return outcome(of: record, for: step, takenBefore: taken.dropLast(), ledger: ledger)
    }

    /// What `record`, the step's own, says of `step`; `before` are the records read ahead of it.
    private func outcome(
        of record: Record, for step: PathStep<Definition>, takenBefore before: some Collection<Record>,
        ledger: PathLedger<Definition>
    ) -> StepOutcome {
        let fired = ledger.transition(of: record)
        if fired == step.index { return .fired(record) }
        // A state task or child took the step first: the step's own input met the next state.
        if let first = before.first(where: { ledger.transition(of: $0) == step.index }) { return .fired(first) }
        if case .conditionFalse = record.outcome, record.source == step.transition.source {
            return .missed(.blockedByCondition(step.transition))
        }
        if let fired, !step.decidingRows.isEmpty, ledger.sameCell(fired, step.index) {
            return .missed(.blockedByCondition(ledger.transitions[fired]))
        }
        return .missed(.diverged("path \(path.index), meant to fire \(step), got \(record)"))
    }

    /// Reads records, crediting each, until one satisfies `last` or the machine stops; returns them.
    nonisolated(nonsending) private mutating func read(
        into ledger: inout PathLedger<Definition>, until last: (Record) -> Bool
    ) async -> [Record] {
        var read: [Record] = []
        while let record = await records.next(isolation: #isolation) {
            ledger.credit(record)
            read.append(record)
            if last(record) { break }
        }
        return read
    }

    /// Stops the machine and credits the records it published up to its end.
    nonisolated(nonsending) private mutating func finish(into ledger: inout PathLedger<Definition>) async {
        await machine.stop()
        _ = await read(into: &ledger) { _ in false }
    }
}
