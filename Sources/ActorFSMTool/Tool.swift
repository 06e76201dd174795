import ActorFSMDurability

/// The `actorfsm` command: reads a store's machines without the program that wrote them.
package enum Tool {
    /// Runs the command `arguments` ask for (without the program's name), writing what it
    /// prints to `output` and what goes wrong to `errors`.
    ///
    /// - Returns: the exit status: 0 done, 1 failed, 2 a command line that cannot be run.
    package static func run(
        _ arguments: [String], output: @escaping @Sendable (String) -> Void, errors: @Sendable (String) -> Void
    ) async -> Int32 {
        do {
            let invocation = try Invocation(arguments)
            let store = try StoreOpening.open(invocation.store, namespace: invocation.namespace)
            switch invocation.command {
            case .machines: try await MachinesCommand(invocation, store: store, output: output).run()
            case .history(let id): try await HistoryCommand(invocation, store: store, output: output).run(id: id)
            case .states: try await StatesCommand(invocation, store: store, output: output).run()
            case .watch: try await WatchCommand(invocation, store: store, output: output).run()
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
