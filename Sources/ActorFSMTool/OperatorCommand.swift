import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite

/// `actorfsm pause|resume|cancel|retry|signal`: an operator's act on one machine, or on every
/// machine the filters select. It lists what it would touch (read beside the store's writer),
/// asks before acting on more than one machine, and only then opens the store as a writer, or,
/// when the application holds a SQLite file, asks it (``RequestedActs``); each act is recorded
/// in the machine's history with `--reason`. A signal is always asked of the application: only
/// its code can process an event.
struct OperatorCommand {
    let context: CommandContext
    /// Asks the operator a yes-or-no question; `true` for yes.
    let confirm: @Sendable (String) async -> Bool
    let verb: OperatorVerb
    let id: String?
    var invocation: Invocation { context.invocation }

    func run() async throws {
        let machines = try await selected()
        let ids = machines.map(\.id)
        context.output("\(ids.count) machines to \(verb)\n")
        for id in ids.prefix(20) { context.output("  \(id)\n") }
        if ids.count > 20 { context.output("  … and \(ids.count - 20) more\n") }
        guard !invocation.dryRun, !ids.isEmpty else { return }
        if ids.count > 1 && !invocation.assumesYes {
            guard await confirm("\(verb.description.capitalized) \(ids.count) machines? [y/N] ") else {
                throw RefusedByOperator(nothing: "no machine was changed")
            }
        }
        if verb == .signal && !StoreOpening.isPostgres(invocation.store) {
            guard SQLiteRequests.hasWriter(at: invocation.store) else {
                throw CommandFailure("no application holds \(invocation.store), and only its code processes an event: "
                                     + "signal once it runs (nothing was asked)")
            }
            let requests = try SQLiteRequests(path: invocation.store)
            defer { requests.close() }
            return try finish(failed: try await RequestedActs(context: context, verb: verb, queue: requests).run(on: machines),
                              of: ids.count)
        }
        let writable: WritableStore
        do {
            writable = try StoreOpening.openForWriting(invocation.store, namespace: invocation.namespace)
        } catch let error as StoreError where error.isLocked {
            // The application holds the file: it carries the acts out.
            let requests = try SQLiteRequests(path: invocation.store)
            defer { requests.close() }
            return try finish(failed: try await RequestedActs(context: context, verb: verb, queue: requests).run(on: machines),
                              of: ids.count)
        }
        defer { writable.close() }
        var failed = 0
        var held: [StoredMachine] = verb == .signal ? machines : []
        for machine in machines where verb != .signal {
            do {
                try await act(on: machine.id, in: writable.store)
            } catch where error.isHeldElsewhere && writable.store is any OperatorRequestQueue {
                held.append(machine)
            } catch {
                context.errors("actorfsm: \(error)\n")
                failed += 1
            }
        }
        if let queue = writable.store as? any OperatorRequestQueue, !held.isEmpty {
            // Another live process holds these machines: it carries the acts out.
            failed += try await RequestedActs(context: context, verb: verb, queue: queue).run(on: held)
        }
        try finish(failed: failed, of: ids.count)
    }

    private func finish(failed: Int, of count: Int) throws {
        context.output("Done: \(count - failed) of \(count) machines\n")
        if failed > 0 { throw CommandFailure("\(failed) of \(count) machines were not changed") }
    }

    private func act(on id: String, in store: any MachinePurging & MachineStore) async throws(StoreError) {
        switch verb {
        case .pause: try await store.pause(machine: id, reason: invocation.reason)
        case .resume: try await store.resume(machine: id, reason: invocation.reason)
        case .cancel: try await store.cancel(machine: id, reason: invocation.reason)
        case .retry: try await store.retry(machine: id, reason: invocation.reason)
        case .signal: throw StoreError("a signal is processed by the application that runs the machine")
        }
    }

    /// The machine the id names, or those the filters select that the verb can change (see
    /// `OperatorReport.selected`).
    private func selected() async throws -> [StoredMachine] {
        if let id {
            guard let machine = try await context.store.machine(id) else { throw CommandFailure("the store holds no machine \(id)") }
            return [machine]
        }
        let query = invocation.olderThan.map { invocation.query.olderThan($0) } ?? invocation.query
        return try await context.store.machines(matching: query, changeableBy: OperatorRequest.Verb(rawValue: verb.description)!)
    }
}
