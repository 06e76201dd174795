import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import ActorFSMTool
import PostgresTestSupport
import Testing
import TestSupport

/// `actorfsm pause|resume` on PostgreSQL: a machine no live process holds is changed by the
/// command itself; one a live process holds is changed by that process, which the request
/// reaches through the database.
@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresOperatorRequestTests {
    @Test func theCommandActsThroughTheProcessThatHoldsTheMachine() async throws {
        try await withPostgres(actThroughTheHolder)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func actThroughTheHolder(on server: TemporaryPostgres) async throws {
        let store = try PostgresStore(url: server.url, node: "app", summaryDelay: .zero)
        var durability = doorDurability(store)
        durability.operatorRequestInterval = .milliseconds(20)
        let doors = try Supervisor(schema: try doorSchema(), durability: durability)
        try await doors.activate(id: "held", data: Door.Data())

        // Beside the application, the store alone cannot change a machine it runs.
        let beside = try PostgresStore(url: server.url, node: "beside")
        let refusal = await #expect(throws: StoreError.self) { try await beside.pause(machine: "held", reason: "no") }
        #expect(refusal?.isHeldElsewhere == true)
        beside.close()

        let (status, printed, errors) = await Self.tool(["pause", "held", "--store", server.url, "--reason", "fraud review"])
        #expect(status == 0, "\(errors)")
        #expect(printed.contains("Another process holds them: asked it to pause 1 machines"))
        #expect(printed.contains("Done: 1 of 1 machines"))
        #expect(await doors.machine(id: "held")?.isPaused == true)
        do {
            try await doors.send(to: "held", .open)
            Issue.record("a machine the command paused took an event")
        } catch {
            #expect(error.kind == .paused)
        }
        let (resumed, _, _) = await Self.tool(["resume", "held", "--store", server.url, "--reason", "cleared"])
        #expect(resumed == 0)
        #expect(try await doors.send(to: "held", .open).target == .open)
        #expect(try await store.history(of: "held").compactMap(\.operation?.reason) == ["fraud review", "cleared"])

        // Once the application has shut down, the command writes the act itself.
        await doors.shutdown()
        store.close()
        let (closed, closedPrinted, _) = await Self.tool(["pause", "held", "--store", server.url, "--reason", "after hours"])
        #expect(closed == 0)
        #expect(!closedPrinted.contains("Another process holds them"))
        let reader = try PostgresReader(url: server.url)
        #expect(try await reader.machine("held")?.summary.status == .paused)
        reader.close()
    }

    @Test func aSupervisorActsOnAMachineAnotherProcessHoldsThroughThatProcess() async throws {
        try await withPostgres(actFromCode)
    }

    /// The body of the test above.
    private func actFromCode(on server: TemporaryPostgres) async throws {
        func doors(_ node: String) throws -> (PostgresStore, Supervisor<Door>) {
            let store = try PostgresStore(url: server.url, node: node, summaryDelay: .zero)
            var durability = doorDurability(store)
            durability.operatorRequestInterval = .milliseconds(20)
            return (store, try Supervisor(schema: try doorSchema(), durability: durability))
        }
        let (appStore, app) = try doors("app")
        let (otherStore, other) = try doors("other")
        try await app.activate(id: "held", data: Door.Data())

        try await other.pause("held", reason: "from the other process")
        #expect(await app.machine(id: "held")?.isPaused == true)
        #expect(other.machine(id: "held") == nil, "the machine stays where it runs")
        try await other.resume("held", reason: "done looking")
        #expect(try await other.send(to: "held", .open).target == .open)
        #expect(try await other.signal("held", .close, reason: "shut by hand") == nil, "signalled where the machine runs")
        #expect(await app.machine(id: "held")?.state == .closed)
        // A retry of a machine whose newest entry did not fail is refused before anything moves.
        let refused = await #expect(throws: MachineError<Door>.self) { try await other.retry("held", reason: "nothing failed") }
        let why = refused?.underlying.map { "\($0)" } ?? ""
        #expect(why.contains("did not fail: there is nothing to retry"))
        #expect(await app.machine(id: "held")?.state == .closed, "the machine still runs where it ran")
        let outcome = try await other.cancel("held", reason: "closing down")
        guard case .elsewhere(let answer) = outcome else {
            Issue.record("the cancel was not carried out where the machine runs: \(outcome)")
            return
        }
        #expect(answer == "ended for good")
        #expect(try await appStore.history(of: "held").compactMap(\.operation?.verb) == ["pause", "resume", "signal", "cancel"])
        #expect(try await appStore.machine("held")?.summary.status == .cancelled)
        await other.shutdown()
        await app.shutdown()
        otherStore.close()
        appStore.close()
    }

    /// The database restarts while a request waits: the request stays, the holder's supervisor
    /// takes it once its connection is back, and the requester, which waits through the restart,
    /// reads the answer.
    @Test func aRequestOutlivesADatabaseRestart() async throws {
        try await withPostgres(outliveARestart)
    }

    /// The body of the test above.
    private func outliveARestart(on server: TemporaryPostgres) async throws {
        let appStore = try PostgresStore(url: server.url, node: "app", leaseDuration: .seconds(600), summaryDelay: .zero)
        var durability = doorDurability(appStore)
        durability.operatorRequestInterval = nil
        let app = try Supervisor(schema: try doorSchema(), durability: durability)
        try await app.activate(id: "held", data: Door.Data())
        let requester = try PostgresStore(url: server.url, node: "requester", leaseDuration: .seconds(600))
        let number = try await requester.submit(OperatorRequest(machine: "held", schema: "Door", verb: .pause,
                                                                reason: "across a restart", time: 1_000))
        try await serverWork { try server.kill() }
        try await serverWork { try server.restart() }
        let waiting = Task { try await requester.outcome(ofRequest: number, until: .now + .seconds(60)) }
        var served = 0
        for _ in 0..<5 where served == 0 { served = await app.serveOperatorRequests() }
        #expect(served == 1, "the holder takes the request once its connection is back")
        #expect(try await waiting.value == .answered(succeeded: true, message: "done"))
        #expect(await app.machine(id: "held")?.isPaused == true)
        #expect(try await appStore.history(of: "held").last?.operation?.reason == "across a restart")
        await app.shutdown()
        requester.close()
        appStore.close()
    }

    /// A request of a verb this version does not know (from a newer `actorfsm`, say) is refused
    /// with an answer, not left waiting; and a supervisor's act on a machine another process
    /// holds, whose caller is cancelled, withdraws its request, and nothing changes.
    @Test func anUnknownVerbIsRefusedAndACancelledActWithdrawsItsRequest() async throws {
        try await withPostgres(refuseAndWithdraw)
    }

    /// The body of the test above.
    private func refuseAndWithdraw(on server: TemporaryPostgres) async throws {
        let appStore = try PostgresStore(url: server.url, node: "app", summaryDelay: .zero)
        var durability = doorDurability(appStore)
        durability.operatorRequestInterval = nil
        let app = try Supervisor(schema: try doorSchema(), durability: durability)
        try await app.activate(id: "held", data: Door.Data())
        let number = try await appStore.integer("""
            INSERT INTO actorfsm_requests (machine, schema, verb, reason, requested_at) VALUES ('held', 'Door', 'rewind', 'newer', 1)
            RETURNING id
            """)
        #expect(await app.serveOperatorRequests() == 0, "nothing carried out")
        #expect(try await appStore.progress(ofRequest: number)
                == .answered(succeeded: false, message: "this process does not know the verb rewind"))

        let otherStore = try PostgresStore(url: server.url, node: "other", summaryDelay: .zero)
        let other = try Supervisor(schema: try doorSchema(), durability: doorDurability(otherStore))
        let pausing = Task { try await other.pause("held", reason: "given up") }
        pausing.cancel()
        do {
            try await pausing.value
            Issue.record("a cancelled act on a machine another process holds succeeded")
        } catch let error as MachineError<Door> {
            #expect(error.kind == .cancelled)
        }
        #expect(try await appStore.integer("SELECT count(*) FROM actorfsm_requests WHERE verb = 'pause'") == 0, "withdrawn")
        #expect(await app.serveOperatorRequests() == 0)
        #expect(await app.machine(id: "held")?.isPaused == false)
        await other.shutdown()
        await app.shutdown()
        otherStore.close()
        appStore.close()
    }

    /// Runs the command; its exit status, what it printed and its errors.
    static func tool(_ arguments: [String]) async -> (Int32, String, String) {
        let printed = Locked("")
        let errors = Locked("")
        let status = await Tool.run(arguments, output: { text in printed.withLock { $0 += text } },
                                    errors: { text in errors.withLock { $0 += text } }, confirm: { _ in false })
        return (status, printed.withLock { $0 }, errors.withLock { $0 })
    }
}
