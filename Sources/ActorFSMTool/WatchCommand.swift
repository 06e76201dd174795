import ActorFSMDurability

/// `actorfsm watch`: prints machines as their transitions are written, until interrupted.
struct WatchCommand {
    let context: CommandContext
    var invocation: Invocation { context.invocation }
    var store: any StoreInspection { context.store }

    func output(_ text: String) { context.output(text) }

    func run() async throws {
        var follower = invocation.fromStart ? ChangeFollower(store: store) : try await ChangeFollower.fromNow(store: store)
        while true {
            do {
                for machine in try await follower.next() { output(Self.line(machine)) }
            } catch {
                // A store that fails for a while (a database restarting) is read again at the
                // next interval: the follower goes on from the last change it returned.
                context.errors("actorfsm: \(error); reading again in \(invocation.interval)\n")
            }
            try await Task.sleep(for: invocation.interval)
        }
    }

    private static func line(_ machine: StoredMachine) -> String {
        let summary = machine.summary
        var line = "\(TextFormat.time(summary.lastTransition))  \(machine.id)  #\(machine.sequenceNumber)  "
            + "\(summary.state)  \(summary.status.rawValue)"
        if let until = summary.waitingUntil { line += " until \(TextFormat.time(until))" }
        return line + "\n"
    }
}
