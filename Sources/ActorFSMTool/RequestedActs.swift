import ActorFSM
import ActorFSMDurability

/// `actorfsm pause|resume|cancel|retry` on machines another process holds (a SQLite file the
/// application holds, or machines a live process sharing a PostgreSQL database holds), and
/// `actorfsm signal` on any: each act goes to the application as an operator's request, through
/// the store, and the command waits for the answers, up to `--wait`. A request no process took by then is withdrawn, so nothing is
/// done later behind the operator's back.
struct RequestedActs {
    let context: CommandContext
    let verb: OperatorVerb
    let queue: any OperatorRequestQueue

    /// Asks for the acts on `machines` and waits for the answers; returns how many were not done.
    func run(on machines: [StoredMachine]) async throws -> Int {
        let invocation = context.invocation
        let requests = queue
        let names = Dictionary(try await context.store.storedSchemas().map { ($0.fingerprint, $0.description.name) },
                               uniquingKeysWith: { first, _ in first })
        let verb = OperatorRequest.Verb(rawValue: verb.description)!
        let time = SystemWallClock().nanosecondsSince1970() / 1_000_000
        let event = invocation.event.map { SignalledEvent.named($0, payload: invocation.payload) }
        var pending: [(id: String, number: Int64)] = []
        for machine in machines {
            let request = OperatorRequest(machine: machine.id, schema: names[machine.summary.fingerprint] ?? "", verb: verb,
                                          reason: invocation.reason, time: time, event: event)
            pending.append((machine.id, try await requests.submit(request)))
        }
        context.output(verb == .signal ? "Asked the application to signal \(pending.count) machines\n"
                           : "Another process holds them: asked it to \(verb.rawValue) \(pending.count) machines\n")
        return try await failures(awaiting: pending, from: requests, until: .now + invocation.wait)
    }

    /// Waits for the answers to `pending`, printing each refusal; returns how many were not done.
    /// The requests share one deadline: waiting for one lets the others be answered meanwhile.
    private func failures(
        awaiting pending: [(id: String, number: Int64)], from requests: any OperatorRequestQueue, until deadline: ContinuousClock.Instant
    ) async throws -> Int {
        var failed = 0
        for request in pending {
            let outcome = try await requests.outcome(ofRequest: request.number, until: deadline)
            guard let why = outcome.problem(waited: context.invocation.wait) else { continue }
            context.errors("actorfsm: \(request.id): \(why)\n")
            failed += 1
        }
        return failed
    }
}
