import ActorFSMDurability

/// `actorfsm machines`: one page of machines, longest since their last transition first.
struct MachinesCommand {
    let context: CommandContext
    var invocation: Invocation { context.invocation }
    var store: any StoreInspection { context.store }

    func output(_ text: String) { context.output(text) }

    func run() async throws {
        var query = invocation.query
        if let age = invocation.olderThan { query = query.olderThan(age) }
        let page = try await store.machines(query)
        if invocation.format == .json {
            output(try TextFormat.json(PageRow(page)))
            return
        }
        let now = TextFormat.now()
        let rows = page.machines.map { machine in
            let summary = machine.summary
            return [machine.id, summary.state, summary.status.rawValue, TextFormat.time(summary.lastTransition),
                    TextFormat.age(summary.lastTransition, now: now), "\(machine.sequenceNumber)",
                    summary.waitingUntil.map(TextFormat.time) ?? "-"]
        }
        output(TextFormat.table(["ID", "STATE", "STATUS", "LAST TRANSITION", "AGE", "ENTRY", "WAITING UNTIL"],
                                                   rows))
        if let next = page.next {
            output("more: --after \(next.lastTransition)/\(next.id)\n")
        }
    }
}

/// A page as `--json` prints it, with the next page's cursor.
struct PageRow: Encodable {
    let machines: [StoredMachine]
    let after: String?

    init(_ page: MachinePage) {
        machines = page.machines
        after = page.next.map { "\($0.lastTransition)/\($0.id)" }
    }
}
