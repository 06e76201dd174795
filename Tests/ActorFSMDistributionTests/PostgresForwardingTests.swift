import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresForwardingTests {
    @Test func aSendFromAnyProcessIsProcessedByTheOneHoldingTheMachine() async throws {
        try await withPostgres(sendFromAnyProcess)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func sendFromAnyProcess(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data())

        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
        let record = try await theirs.send(to: "a", .open)
        #expect(record.machineID == "a")
        #expect(record.source == .closed && record.target == .open && record.sequenceNumber == 1)
        #expect(theirs.machine(id: "a") == nil)
        #expect(await mine.machine(id: "a")?.state == .open)

        // A post returns once queued; a send after it from the same process comes after it.
        try await theirs.post(to: "a", .close)
        let unhandled = try await theirs.send(to: "a", .close)
        #expect(!unhandled.outcome.isTransitioned && unhandled.sequenceNumber == 3)
        #expect(try await first.entries(of: "a").map(\.sequenceNumber) == [0, 1, 2, 3])
        let history = try await doorDurability(first).history(of: "a", schema: try doorSchema())
        #expect(history.map(\.kind) == [.created, .completed("transitioned"), .completed("transitioned"), .completed("unhandled")])
        #expect(history.map(\.event) == [nil, .open, .close, .close])
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 0)

        // Making a machine another process holds is not forwarded: it says where it is.
        let error = await #expect(throws: MachineError<Door>.self) { try await theirs.activate(id: "a", data: Door.Data()) }
        #expect((error?.underlying as? DurabilityError)?.kind == .heldElsewhere)
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }

    /// A sender remembers that another process held the machine and forwards its next event
    /// without claiming; the holder has closed meanwhile, so the event wakes the sender, which
    /// claims the machine and processes it, once.
    @Test func aSendToAMachineWhoseHolderLeftIsProcessedWhereItWasSent() async throws {
        try await withPostgres(sendAfterTheHolderLeft)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func sendAfterTheHolderLeft(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data())
        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
        #expect(try await theirs.send(to: "a", .open).sequenceNumber == 1)
        #expect(theirs.machine(id: "a") == nil)

        await mine.shutdown()
        first.close()
        let record = try await theirs.send(to: "a", .close)
        #expect(record.source == .open && record.target == .closed && record.sequenceNumber == 2)
        #expect(theirs.machine(id: "a") != nil, "the sender claimed the machine and runs it")
        #expect(try await theirs.send(to: "a", .open).sequenceNumber == 3)
        #expect(try await second.entries(of: "a").map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(try await second.integer("SELECT count(*) FROM actorfsm_inbox") == 0)
        await theirs.shutdown()
        second.close()
    }

    @Test func eventsQueuedForAProcessThatDiesAreProcessedOnceByItsSuccessor() async throws {
        try await withPostgres(eventsQueuedForADeadProcess)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func eventsQueuedForADeadProcess(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data())
        try await mine.send(to: "a", .open)

        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
        let reports = theirs.reports()
        // The holder stops (a long pause): the posts wait in the database.
        first.pause()
        try await theirs.post(to: "a", .close)
        try await theirs.post(to: "a", .open)
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 2)

        // Its time runs out: the second process takes the machine over and processes them.
        try await first.expireNode()
        var processed: [Door.Event?] = []
        for await report in reports {
            guard let record = report.record else { continue }
            processed.append(record.event)
            if processed.count == 2 { break }
        }
        #expect(processed == [.close, .open])
        #expect(await theirs.machine(id: "a")?.state == .open)
        let history = try await doorDurability(second).history(of: "a", schema: try doorSchema())
        #expect(history.map(\.event) == [nil, .open, .close, .open])
        // Each was marked recorded by the successor in the commit that journaled it (a later
        // statement removes the rows, so they may still be there).
        #expect(try await second.integer("SELECT count(*) FROM actorfsm_inbox WHERE consumed_by <> 'second'") == 0)
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }

    @Test func aForwardedEventPostponedByItsMachineIsAnsweredWhenItIsProcessed() async throws {
        let schema = try Schema<Door>(initial: .closed, final: []) {
            define(.closed) {
                when(.open) | then(.open)
                when(.lock) | then(.locked)
            }
            define(.open) { when(.close) | then(.closed) }
            define(.locked) {
                when(.unlock) | then(.closed)
                when(.open) | postpone()
            }
        }
        try await withPostgres { server in try await postponedForwardedEvent(on: server, schema: schema) }
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func postponedForwardedEvent(on server: TemporaryPostgres, schema: Schema<Door>) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: schema, durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data())
        try await mine.send(to: "a", .lock)

        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: schema, durability: doorDurability(second))
        let opening = Task { try await theirs.send(to: "a", .open) }
        // Locked, the holder keeps the event; unlocked, it processes it.
        await mine.machine(id: "a")?.untilPostponed(1)
        try await mine.send(to: "a", .unlock)
        let opened = try await opening.value
        #expect(opened.source == .closed && opened.target == .open && opened.postponements == 1)
        let history = try await doorDurability(first).history(of: "a", schema: schema)
        #expect(history.map(\.event) == [nil, .lock, .unlock, .open])
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 0)
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }

    @Test func aSenderGivesUpAfterTheReplyTimeoutAndTheEventIsStillProcessedOnce() async throws {
        try await withPostgres(giveUpAfterTheReplyTimeout)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func giveUpAfterTheReplyTimeout(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first", leaseDuration: .seconds(60))
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data(openings: 7))
        first.pause()

        let second = try PostgresStore(url: server.url, node: "second", replyTimeout: .seconds(1))
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
        let reports = theirs.reports()
        let error = await #expect(throws: MachineError<Door>.self) { try await theirs.send(to: "a", .open) }
        #expect(error?.kind == .notDurable)
        #expect(error.flatMap { $0.underlying.map { "\($0)" } }?.contains("no reply within 1.0 seconds") == true)
        #expect(try await second.integer("SELECT count(*) FROM actorfsm_inbox WHERE consumed_by = ''") == 1)

        // The holder never comes back: the event waits for its successor, which takes the
        // machine over (sent nothing yet, it is stored as it was made) and processes it.
        try await first.expireNode()
        for await report in reports {
            guard let record = report.record else { continue }
            #expect(record.event == .open && record.target == .open && record.sequenceNumber == 1)
            break
        }
        #expect(await theirs.machine(id: "a")?.data.openings == 8)
        let history = try await doorDurability(second).history(of: "a", schema: try doorSchema())
        #expect(history.map(\.event) == [nil, .open])
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }

    @Test func aReplyTimeoutOutOfRangeIsRefused() async throws {
        try await withPostgres { server in
            let error = #expect(throws: StoreError.self) {
                try PostgresStore(url: server.url, node: "first", replyTimeout: .milliseconds(10))
            }
            #expect(error?.message.contains("reply timeout") == true)
        }
    }

    @Test func aSenderWaitingForAReplyFailsWhenItsStoreCloses() async throws {
        try await withPostgres { server in
            let first = try PostgresStore(url: server.url, node: "first")
            let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
            try await mine.activate(id: "a", data: Door.Data())
            first.pause()

            let second = try PostgresStore(url: server.url, node: "second")
            let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
            // Whether the send is still on its way or waits for the holder that does not answer,
            // closing its store ends it.
            let waiting = Task { try await theirs.send(to: "a", .open) }
            second.close()
            let error = await #expect(throws: MachineError<Door>.self) { try await waiting.value }
            #expect(error?.kind == .notDurable)
            let cause = error.flatMap { $0.underlying.map { "\($0)" } } ?? ""
            #expect(cause.contains("closed"))
            await mine.shutdown()
            await theirs.shutdown()
            first.close()
        }
    }

    @Test func aDeadProcessesTimersFireOnceInTheProcessThatTakesItsMachinesOver() async throws {
        try await withPostgres(deadProcessesTimers)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func deadProcessesTimers(on server: TemporaryPostgres) async throws {
        let firstClock = ManualClock()
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first, clock: firstClock),
                                  configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: firstClock)))
        try await mine.activate(id: "a", data: Door.Data())
        try await mine.send(to: "a", .lock)

        let secondClock = ManualClock()
        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second, clock: secondClock),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: secondClock)))
        let reports = theirs.reports()
        first.pause()
        try await first.expireNode()
        // The second process adopts the machine unasked, and arms its timer again.
        await secondClock.waitUntilSleeping(count: 1)
        secondClock.advance(by: .seconds(60))
        var fired: TransitionRecord<Door>?
        for await report in reports {
            if let record = report.record { fired = record; break }
        }
        #expect(fired?.target == .jammed)
        #expect(fired?.origin.timeout == .seconds(60))

        // The paused process's own timer fires late: its write is rejected, neither added
        // nor written over the successor's entry (whose row version stays the same).
        let version = "SELECT xmin::text::bigint FROM actorfsm_journal WHERE machine = 'a' AND seq = 2"
        let written = try await second.integer(version)
        // The successor writes its waiting summaries when asked through its store.
        _ = try await second.stateCounts()
        let summaryBefore = try await second.integer("SELECT xmin::text::bigint FROM actorfsm_machines WHERE machine = 'a'")
        let late = mine.reports()
        firstClock.advance(by: .seconds(60))
        for await report in late where report.record != nil {
            #expect(report.record?.target == .jammed)
            break
        }
        // Read through the paused process's store: after its rejected write.
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_journal WHERE machine = 'a'") == 3)
        #expect(try await first.integer(version) == written)
        let history = try await doorDurability(second).history(of: "a", schema: try doorSchema())
        #expect(history.count == 3)
        #expect(history.last?.state == .jammed && history.last?.event == nil)
        // Nor did it write over the successor's summary.
        let summaryVersion = "SELECT xmin::text::bigint FROM actorfsm_machines WHERE machine = 'a'"
        #expect(try await first.integer(summaryVersion) == summaryBefore)
        let problems = await SummaryAudit.disagreements(in: second)
        #expect(problems.isEmpty, "\(problems)")
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }
}
