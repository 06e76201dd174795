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
    mutating func walk(
        into ledger: inout PathLedger<Definition>,
        checking invariant: (Machine<Definition>, Record) async throws -> Void
    ) async throws {
        for (number, step) in path.steps.enumerated() {
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

    /// Gives the machine `step`'s input, and reads what it did.
    private mutating func take(_ step: PathStep<Definition>, into ledger: inout PathLedger<Definition>) async -> StepOutcome {
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
        case .timeout(let duration):
            // Every deadline of the state is at most `duration` from now: the state was entered
            // at the latest now, and the clock moves only here.
            clock.advance(by: duration)
            let source = step.transition.source
            let taken = await read(into: &ledger) {
                $0.source == source && ($0.origin.timeout == duration || $0.target != source)
            }
            guard let record = taken.last else { return .missed(.diverged("the machine stopped")) }
            return outcome(of: record, for: step, takenBefore: taken.dropLast(), ledger: ledger)
        }
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
        if let fired, !step.conditions.isEmpty, ledger.sameCell(fired, step.index) {
            return .missed(.blockedByCondition(ledger.transitions[fired]))
        }
        return .missed(.diverged("path \(path.index), meant to fire \(step), got \(record)"))
    }

    /// Reads records, crediting each, until one satisfies `last` or the machine stops; returns them.
    private mutating func read(
        into ledger: inout PathLedger<Definition>, until last: (Record) -> Bool
    ) async -> [Record] {
        var read: [Record] = []
        while let record = await records.next() {
            ledger.credit(record)
            read.append(record)
            if last(record) { break }
        }
        return read
    }

    /// Stops the machine and credits the records it published up to its end.
    private mutating func finish(into ledger: inout PathLedger<Definition>) async {
        await machine.stop()
        _ = await read(into: &ledger) { _ in false }
    }
}
