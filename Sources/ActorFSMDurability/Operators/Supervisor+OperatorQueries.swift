import ActorFSM

/// What an operator does to each machine a query selects (see
/// `Supervisor.act(_:on:reason:dryRun:)`): one of the supervisor's verbs, and a signal's event.
public enum OperatorAct<Event: Sendable>: Sendable {
    /// `Supervisor.pause(_:reason:)`.
    case pause
    /// `Supervisor.resume(_:reason:)`.
    case resume
    /// `Supervisor.cancel(_:reason:)`.
    case cancel
    /// `Supervisor.retry(_:reason:)`.
    case retry
    /// `Supervisor.signal(_:_:predicates:reason:)`, with this event.
    case signal(Event)

    /// The verb, as requests and selections name it.
    var verb: OperatorRequest.Verb {
        switch self {
        case .pause: .pause
        case .resume: .resume
        case .cancel: .cancel
        case .retry: .retry
        case .signal: .signal
        }
    }
}

extension Supervisor where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// Applies `act` to every machine of this supervisor's schema (any of its versions the
    /// store holds) that `query` selects and the verb can change (see
    /// ``OperatorReport/selected``), each as the verb on one id does, with `reason`: on
    /// machines this supervisor runs, on those it restores from its store, and, through the
    /// store, on those another live process holds. With `dryRun`, it only lists them.
    ///
    /// ```swift
    /// let failed = MachineQuery(status: .failed)
    /// let preview = try await orders.act(.retry, on: failed, reason: "deployed the fix", dryRun: true)
    /// print("\(preview.selected) orders to retry: \(preview.firstIDs)")
    /// let report = try await orders.act(.retry, on: failed, reason: "deployed the fix")
    /// for failure in report.failures { print(failure.machine, failure.reason) }
    /// ```
    ///
    /// Up to 16 machines are acted on at once. A machine the verb cannot change (it ended
    /// meanwhile, its process refused) is reported among the failures, with the verb's error,
    /// and the others are still acted on.
    ///
    /// - Throws: `StoreError` if the supervisor is not durable or has shut down, or its store
    ///   cannot list its machines or fails while it selects them: nothing was done.
    public func act(
        _ act: OperatorAct<Event>, on query: MachineQuery, reason: String = "", dryRun: Bool = false
    ) async throws(StoreError) -> OperatorReport {
        let machines = try await operands(of: act.verb, matching: query)
        var report = OperatorReport(dryRunOver: machines)
        guard !dryRun else { return report }
        report.isDryRun = false
        let failures = await withTaskGroup(of: (Int, OperatorReport.Failure?).self) { group in
            var failures: [(Int, OperatorReport.Failure)] = []
            for (index, machine) in machines.enumerated() {
                if index >= 16, let (done, failure) = await group.next(), let failure { failures.append((done, failure)) }
                group.addTask { (index, await self.carryOut(act, on: machine.id, reason: reason)) }
            }
            for await (done, failure) in group { if let failure { failures.append((done, failure)) } }
            return failures.sorted { $0.0 < $1.0 }.map(\.1)
        }
        report.failures = failures
        report.changed = machines.count - failures.count
        return report
    }

    /// The machines of this supervisor's schema that `query` selects and `verb` can change.
    private func operands(of verb: OperatorRequest.Verb, matching query: MachineQuery) async throws(StoreError) -> [StoredMachine] {
        if isShutDown { throw StoreError("the supervisor is shut down: it acts on no machine") }
        guard let durable, let store = durable.durability.store as? any MachineStore & StoreInspection else {
            throw StoreError("the supervisor is not durable, or its store does not list its machines")
        }
        let name = durable.stored.description.name
        let fingerprints = Set(try await store.storedSchemas().filter { $0.description.name == name }.map(\.fingerprint))
        return try await store.machines(matching: query, changeableBy: verb).filter { fingerprints.contains($0.summary.fingerprint) }
    }

    /// Carries out `act` on the stored machine `key`; the failure, if it failed.
    private func carryOut(_ act: OperatorAct<Event>, on key: String, reason: String) async -> OperatorReport.Failure? {
        guard let id = durable?.id(key) else { return .init(machine: key, reason: "\(key) is not an id of \(Definition.self)") }
        do throws(MachineError<Definition>) {
            switch act {
            case .pause: try await pause(id, reason: reason)
            case .resume: try await resume(id, reason: reason)
            case .cancel: try await cancel(id, reason: reason)
            case .retry: try await retry(id, reason: reason)
            case .signal(let event):
                // A signal its state does not take changed nothing: reported, as a request's is.
                switch try await signal(id, event, reason: reason)?.outcome {
                case .unhandled?: return .init(machine: key, reason: "\(event) is not handled in its state: nothing changed")
                case .conditionFalse?: return .init(machine: key, reason: "\(event): its condition was false: nothing changed")
                default: break
                }
            }
            return nil
        } catch {
            return .init(machine: key, reason: "\(error)")
        }
    }
}
