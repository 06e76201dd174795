import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

/// Whether a process has stopped sending load.
private final class LoadSwitch: Sendable {
    private let isOn = Locked(true)
    var on: Bool { isOn.withLock { $0 } }
    func turnOff() { isOn.withLock { $0 = false } }
}

// The limit leaves room for the thread sanitizer, under which the database restarts take most of it.
@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresLivenessTests {
    /// Two processes share the database and send to each other's machines and their own; the
    /// server is killed under that load and comes back after longer than the leases. Then every
    /// machine of every process takes sends again, from either process, whatever the failure
    /// policy. (Whether a write fails, or waits for the server inside the store's connect, and
    /// whether a takeover fences one, depends on timing; the test asks for liveness either way.)
    @Test(arguments: [FailurePolicy<Door.State>.resume, .stop])
    func everyMachineTakesSendsAgainAfterTheDatabaseRestarts(policy: FailurePolicy<Door.State>) async throws {
        try await withPostgres { server in try await restartUnderLoad(on: server, policy: policy) }
    }

    /// The body of the test above.
    private func restartUnderLoad(on server: TemporaryPostgres, policy: FailurePolicy<Door.State>) async throws {
        let configuration = SupervisorConfiguration<Door.State>(machine: MachineConfiguration(failurePolicy: policy))
        let stores = try ["a", "b"].map { try PostgresStore(url: server.url, node: $0, leaseDuration: .milliseconds(500)) }
        let supervisors = try stores.map {
            try Supervisor(schema: try doorSchema(), durability: doorDurability($0), configuration: configuration)
        }
        let ids = ["a", "b"].flatMap { prefix in (0..<15).map { "\(prefix)\($0)" } }
        for (index, id) in ids.enumerated() {
            try await supervisors[index < 15 ? 0 : 1].activate(id: id, data: Door.Data())
        }
        // Each process sends to every machine, its own and the other's, until switched off.
        let load = LoadSwitch()
        let senders = supervisors.map { supervisor in
            Task {
                var round = 0
                while load.on {
                    round += 1
                    for id in ids where load.on {
                        _ = try? await supervisor.send(to: id, round.isMultiple(of: 2) ? .open : .close)
                    }
                }
            }
        }
        try await serverWork { try server.kill() }
        // The outage lasts 3 s, six leases: the processes' lives run out meanwhile, and each
        // takes over machines of the other once the server is back. (Not a wait for an event:
        // the length of the fault.)
        try await Task.sleep(for: .seconds(3))
        try await serverWork { try server.restart() }
        load.turnOff()
        for sender in senders { await sender.value }

        // A client retries until a machine answers; every machine answers both processes.
        for supervisor in supervisors {
            for id in ids {
                let answer = await Self.firstAnswer(from: supervisor, to: id)
                #expect(answer.record?.machineID == id, "machine \(id) takes no send: \(answer.lastError)")
            }
        }
        // Each process writes the summaries it has waiting when it is asked through its store.
        for store in stores { _ = try await store.stateCounts() }
        let problems = await SummaryAudit.disagreements(in: stores[0])
        #expect(problems.isEmpty, "\(problems)")
        for supervisor in supervisors { await supervisor.shutdown() }
        for store in stores { store.close() }
    }

    /// The record of the first send to `id` that `supervisor` has answered, trying again every
    /// 100 ms for at most 30 s, as a client would, and the last error before it; no record if
    /// none was answered, or the test was cancelled.
    static func firstAnswer(
        from supervisor: Supervisor<Door>, to id: String
    ) async -> (record: TransitionRecord<Door>?, lastError: String) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        var lastError = "none"
        while clock.now < deadline {
            do {
                return (try await supervisor.send(to: id, .kick), lastError)
            } catch {
                lastError = "\(error)"
            }
            do { try await clock.sleep(for: .milliseconds(100)) } catch { break }
        }
        return (nil, lastError)
    }
}
