/// Applies one lifecycle step to many machines, for a supervisor's shutdown or escalation.
enum MachineSweep {
    /// What to do to each machine. `awaitEnd` returns once the machine has ended, so that its
    /// last records are published before the supervisor finishes its stream; a shutdown first
    /// begins every machine's end (`beginShutdown`), a hard stop first stops every machine,
    /// then each awaits the ends, so that no machine waits for another's.
    enum Sweep: Sendable { case beginShutdown, stop, awaitEnd }

    /// Applies `sweep` to every machine, from a few tasks that each take a share of them: one
    /// child task per machine would cost memory per machine and, to reap, time that grows
    /// faster than their number. A switch rather than a closure: calling one closure from
    /// every task would count references to its context from every core.
    ///
    /// - Returns: for `.beginShutdown`, the machines that have yet to end: those with events to
    ///   process, and those that were stopping already.
    static func apply<Definition: MachineDefinition>(
        _ sweep: Sweep, to machines: [Machine<Definition>]
    ) async -> [Machine<Definition>] {
        let workers = Swift.min(machines.count, 2)
        return await withTaskGroup(of: [Machine<Definition>].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var busy: [Machine<Definition>] = []
                    for index in stride(from: worker, to: machines.count, by: workers) {
                        let machine = machines[index]
                        switch sweep {
                        case .beginShutdown: if await machine.beginShutdown() { busy.append(machine) }
                        case .stop: await machine.stop()
                        case .awaitEnd: await machine.awaitEnd(cancellable: false)
                        }
                    }
                    return busy
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }
}
