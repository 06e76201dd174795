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
            output(try TextFormat.json(MachineRow.Page(page)))
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

/// A machine as `--json` prints it.
struct MachineRow: Encodable {
    let id: String
    let sequenceNumber: UInt64
    let state: String
    let status: String
    let fingerprint: String
    let schemaVersion: Int
    let lastTransition: Int64
    let waitingUntil: Int64?
    let change: Int64

    init(_ machine: StoredMachine) {
        id = machine.id
        sequenceNumber = machine.sequenceNumber
        state = machine.summary.state
        status = machine.summary.status.rawValue
        fingerprint = machine.summary.fingerprint
        schemaVersion = machine.summary.schemaVersion
        lastTransition = machine.summary.lastTransition
        waitingUntil = machine.summary.waitingUntil
        change = machine.change
    }

    /// A page as `--json` prints it, with the next page's cursor.
    struct Page: Encodable {
        let machines: [MachineRow]
        let after: String?

        init(_ page: MachinePage) {
            machines = page.machines.map(MachineRow.init)
            after = page.next.map { "\($0.lastTransition)/\($0.id)" }
        }
    }
}
