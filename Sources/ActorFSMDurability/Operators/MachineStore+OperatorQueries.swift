import ActorFSM

// An operator's verb on every machine a query selects, written into the store directly, for
// machines no process runs.

extension MachineStore where Self: StoreInspection {
    /// Applies `verb` to every machine `query` selects that it can change (see
    /// ``OperatorReport/selected``), one after the other, each as
    /// ``pause(machine:reason:wallClock:)`` and its siblings do, with `reason`; with `dryRun`,
    /// only lists them. A machine the verb cannot change (another live process holds it, its
    /// transition was interrupted, it ended meanwhile) is reported among the failures, and the
    /// others are still acted on.
    ///
    /// ```swift
    /// let failed = MachineQuery(status: .failed).olderThan(.seconds(600))
    /// let preview = try await store.act(.retry, on: failed, reason: "the provider is back", dryRun: true)
    /// print("\(preview.selected) machines to retry")
    /// ```
    ///
    /// - Throws: `StoreError` if the store fails while it selects the machines, or for a
    ///   signal: only the application that runs a machine processes an event (use its
    ///   supervisor's `act(_:on:reason:dryRun:)` or `signal(_:_:predicates:reason:)`).
    public func act(
        _ verb: OperatorRequest.Verb, on query: MachineQuery, reason: String, dryRun: Bool = false,
        wallClock: any WallClock = SystemWallClock()
    ) async throws(StoreError) -> OperatorReport {
        guard let operatorVerb = verb.operatorVerb, verb != .signal else {
            throw StoreError("a store does not signal a machine: only the application that runs it processes an event")
        }
        let machines = try await machines(matching: query, changeableBy: verb)
        var report = OperatorReport(dryRunOver: machines)
        guard !dryRun else { return report }
        report.isDryRun = false
        for machine in machines {
            do throws(StoreError) {
                try await act(operatorVerb, on: machine.id, reason: reason, wallClock: wallClock)
                report.changed += 1
            } catch {
                report.failures.append(OperatorReport.Failure(machine: machine.id, reason: error.message))
            }
        }
        return report
    }
}

extension OperatorRequest.Verb {
    /// The verb as a machine's history records it.
    package var operatorVerb: OperatorVerb? {
        OperatorVerb.allCases.first { $0.description == rawValue }
    }
}
