import ActorFSMDurability

/// The `actorfsm` command: reads a store's machines without the program that wrote them.
package enum Tool {
    /// Runs the command `arguments` ask for (without the program's name), writing what it
    /// prints to `output` and what goes wrong to `errors`, and asking the operator's yes or no
    /// with `confirm` (`true` for yes).
    ///
    /// - Returns: the exit status: 0 done, 1 failed, 2 a command line that cannot be run.
    package static func run(
        _ arguments: [String], output: @escaping @Sendable (String) -> Void, errors: @escaping @Sendable (String) -> Void,
        confirm: @escaping @Sendable (String) async -> Bool = { _ in false }
    ) async -> Int32 {
        do {
            var invocation = try Invocation(arguments)
            let store = try StoreOpening.open(invocation.store, namespace: invocation.namespace)
            invocation.query.fingerprint = try await SchemaChoice.fingerprint(
                name: invocation.schemaName, fingerprint: invocation.query.fingerprint, among: { try await store.storedSchemas() })
            let context = CommandContext(invocation: invocation, store: store, output: output, errors: errors)
            switch invocation.command {
            case .machines: try await MachinesCommand(context: context).run()
            case .history(let id): try await HistoryCommand(context: context).run(id: id)
            case .states: try await StatesCommand(context: context).run()
            case .watch: try await WatchCommand(context: context).run()
            case .purge: try await PurgeCommand(context: context, confirm: confirm).run()
            case .act(let verb, let id): try await OperatorCommand(context: context, confirm: confirm, verb: verb, id: id).run()
            case .export: try await ExportCommand(context: context).run()
            case .check(let file): try await CheckCommand(context: context, path: file).run()
            }
            return 0
        } catch let error as UsageError {
            errors((error.message.isEmpty ? "" : "actorfsm: \(error.message)\n\n") + Invocation.usage + "\n")
            return 2
        } catch is CancellationError {
            return 0
        } catch {
            errors("actorfsm: \(error)\n")
            return 1
        }
    }
}

/// What every command works with: the command line, the store, and where to print.
struct CommandContext {
    let invocation: Invocation
    let store: any StoreInspection
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void
}
