import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

/// Replies to forwarded sends: the holder writes each in the commit that records its event,
/// and the database keeps it only until the sender has taken it.
@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresReplyTests {
    @Test func eachReplyComesWithItsEntryAndIsRemovedOnceTaken() async throws {
        try await withPostgres(repliesTakenAndRemoved)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func repliesTakenAndRemoved(on server: TemporaryPostgres) async throws {
        let processes = try await TwoProcesses(on: server, schema: try doorSchema())
        let (first, mine, theirs) = (processes.first, processes.mine, processes.theirs)
        var numbers: [UInt64] = []
        for round in 1...20 {
            numbers.append(try await theirs.send(to: "a", round.isMultiple(of: 2) ? .close : .open).sequenceNumber)
        }
        #expect(numbers == Array(1...20))
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 0)
        // The sender took each reply from its notification; its next send removes their rows.
        #expect(try await theirs.send(to: "a", .kick).sequenceNumber == 21)
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_replies") <= 1)
        #expect(await mine.machine(id: "a")?.data.openings == 10)
        await processes.close()
    }

    /// The holder journals the intent of a forwarded event with an asynchronous action, and the
    /// database dies before the entry that would answer it: the sender learns at once, once the
    /// database is back, that the event was recorded and its record lost, rather than waiting out
    /// its reply timeout; the holder, restored, completes the event once.
    @Test func aSenderLearnsOfAnEventRecordedWhoseAnswerWasLost() async throws {
        try await withPostgres(answerLostWithTheDatabase)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func answerLostWithTheDatabase(on server: TemporaryPostgres) async throws {
        let gate = Gate()
        let schema = try Self.gatedDoor(gate)
        let processes = try await TwoProcesses(on: server, schema: schema)
        let (first, mine, theirs) = (processes.first, processes.mine, processes.theirs)
        let reports = mine.reports()
        let sending = Task { () async throws(MachineError<Door>) -> TransitionRecord<Door> in try await theirs.send(to: "a", .open) }
        await gate.untilArrivals(1)
        try await serverWork { try server.kill() }
        gate.open()
        try await serverWork { try server.restart() }
        let error = await #expect(throws: MachineError<Door>.self) { try await sending.value }
        #expect(error?.kind == .notDurable && "\(error!)".contains("record is lost"), "\(String(describing: error))")
        for await report in reports {
            if case .transition(let record) = report, record.target == .open { break }
        }
        let history = try await doorDurability(first).history(of: "a", schema: schema)
        #expect(history.compactMap(\.event) == [.open])
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 0)
        await processes.close()
    }

    /// The holder's machine is stopped while a forwarded event's action runs: the entry that
    /// would have answered is never written, and the sender hears `.stopped` at once.
    @Test func aSenderHearsThatItsEventWasStoppedMidway() async throws {
        try await withPostgres(stoppedMidway)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func stoppedMidway(on server: TemporaryPostgres) async throws {
        let gate = Gate()
        let schema = try Self.gatedDoor(gate)
        let processes = try await TwoProcesses(on: server, schema: schema)
        let (machine, theirs) = (processes.machine, processes.theirs)
        let sending = Task { () async throws(MachineError<Door>) -> TransitionRecord<Door> in try await theirs.send(to: "a", .open) }
        await gate.untilArrivals(1)
        // The stop cancels the action, which throws: the event ends `.stopped`, unwritten.
        await machine.stop()
        let error = await #expect(throws: MachineError<Door>.self) { try await sending.value }
        #expect(error?.kind == .stopped, "\(String(describing: error))")
        await processes.close()
    }

    /// A door whose opening waits in an asynchronous action for `gate`, or for the action's
    /// cancellation, which it then throws.
    private static func gatedDoor(_ gate: Gate) throws -> Schema<Door> {
        @Sendable func waitForGate(_: TransitionContext<Door>) async throws {
            await withTaskCancellationHandler { await gate.wait() } onCancel: { gate.open() }
            try Task.checkCancellation()
        }
        return try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) | waitForGate }
            define(.open) { when(.close) | then(.closed) }
        }
    }
}

/// Two processes sharing a database: `first` holds machine "a", made on `mine`; `theirs`, over
/// `second`, sends to it through the store. Leases of a minute: no takeover in a test's time.
private struct TwoProcesses {
    let first: PostgresStore
    let second: PostgresStore
    let mine: Supervisor<Door>
    let theirs: Supervisor<Door>
    let machine: Machine<Door>

    init(on server: TemporaryPostgres, schema: Schema<Door>) async throws {
        first = try PostgresStore(url: server.url, node: "first", leaseDuration: .seconds(60))
        mine = try Supervisor(schema: schema, durability: doorDurability(first))
        machine = try await mine.activate(id: "a", data: Door.Data())
        second = try PostgresStore(url: server.url, node: "second", leaseDuration: .seconds(60))
        theirs = try Supervisor(schema: schema, durability: doorDurability(second))
    }

    /// Shuts both supervisors down and closes both stores.
    func close() async {
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }
}
