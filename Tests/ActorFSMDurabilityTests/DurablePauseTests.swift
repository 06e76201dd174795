import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// A durable machine's pause: recorded in its history with the operator's reason, shown in its
/// summary, and honoured by every restore.
@Suite(.timeLimit(.minutes(3))) struct DurablePauseTests {
    /// A door whose opening waits at `gate`.
    static func slowDoorSchema(_ gate: Gate) throws -> Schema<Door> {
        try Schema<Door>(initial: .closed) {
            define(.closed) {
                when(.open) | then(.open) | { (context: TransitionContext<Door>) async in
                    await gate.wait()
                    context.data.openings += 1
                }
            }
            define(.open) { when(.close) | then(.closed) }
        }
    }

    @Test func aPauseSurvivesACrashAndTheHistoryNamesItsReason() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        try await doors.pause("a", reason: "fraud check")
        #expect(try await store.machine("a")?.summary.status == .paused)

        let crashed = store.crash()
        let restarted = try Supervisor(schema: try doorSchema(), durability: doorDurability(crashed))
        #expect(try await restarted.restoreAll().restored == 1)
        let door = try #require(restarted.machine(id: "a"))
        #expect(await door.isPaused)
        do {
            try await restarted.send(to: "a", .close)
            Issue.record("a restored paused machine took an event")
        } catch {
            #expect(error.kind == .paused)
        }
        try await restarted.resume("a", reason: "checked by hand")
        let close = try await restarted.send(to: "a", .close)
        #expect(close.source == .open && close.target == .closed)
        // The pause and the resume took numbers 2 and 3, as events would.
        #expect(close.sequenceNumber == 4)
        #expect(try await crashed.machine("a")?.summary.status == .running)

        let history = try await crashed.history(of: "a")
        #expect(history.map(\.kind) == [.created, .completed, .operator, .operator, .completed])
        let operations = history.compactMap(\.operation).map { "\($0.verb): \($0.reason)" }
        #expect(operations == ["pause: fraud check", "resume: checked by hand"])
        #expect(history.map(\.isPaused) == [false, false, true, false, false])
        #expect(history[2].state == "open" && history[2].data == history[1].data)
        #expect(await SummaryAudit.disagreements(in: crashed).isEmpty)
        await restarted.shutdown()
    }

    @Test func aTimeoutDueWhilePausedAndRestartedFiresOnceAfterTheResume() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try doorSchema()
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        try await door.doors.pause("door")
        let crashed = store.crash()
        clock.advance(by: .seconds(120))
        var again = try await RestoredDoor(crashed, clock: clock, schema: schema)
        #expect(await again.machine.isPaused)
        // The timeout past due waits for the resume.
        await again.machine.untilHeldWhilePaused(1)
        #expect(await again.machine.state == .locked)
        try await again.doors.resume("door")
        let fired = await again.nextRecord()
        #expect(fired?.origin == .timeout(after: .seconds(60)) && fired?.target == .jammed)
        #expect(try await again.nothingFired())
    }

    /// Timers that fell due while the machine was paused and down fire on the resume in the
    /// order of their deadlines, not in the order they were made or rang (overdue, they all
    /// ring at once when the machine is restored).
    @Test func timersDueWhilePausedAndRestartedFireInTheOrderOfTheirDeadlines() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let schema = try doorSchema()
        let door = try await RestoredDoor(store, clock: clock, schema: schema)
        try await door.machine.send(.lock)
        // Made latest first: unlock in 70 s, after the 60-second timeout, kick in 40 s, remind in 10 s.
        try door.machine.schedule(.unlock, after: .seconds(70))
        try door.machine.schedule(.kick, after: .seconds(40))
        try door.machine.schedule(.remind, after: .seconds(10))
        try await door.doors.pause("door")
        let crashed = store.crash()
        clock.advance(by: .seconds(120))
        var again = try await RestoredDoor(crashed, clock: clock, schema: schema)
        await again.machine.untilHeldWhilePaused(4)
        try await again.doors.resume("door")
        // Sent once the resume has queued the timers: its record comes after all of theirs.
        try await again.machine.send(.remind)
        var fired: [String] = []
        while let record = await again.nextRecord(), record.origin != .send {
            fired.append(record.event.map { "\($0)" } ?? "\(record.origin)")
        }
        #expect(fired == ["remind", "kick", "timeout(after: 60.0 seconds)", "unlock"])
        #expect(await again.machine.state == .jammed, "the timeout came before the unlock")
        await again.doors.shutdown()
    }

    /// A sender that chooses to wait has its event processed, and written, after the resume's entry.
    @Test func aSenderThatWaitsOutAPauseIsWrittenAfterTheResume() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let door = try await doors.activate(id: "a", data: Door.Data())
        try await doors.pause("a", reason: "inspection")
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .open, whenPaused: .refuse) }
        let opening = Task { try await doors.send(to: "a", .open, whenPaused: .wait) }
        await door.untilQueued(1)
        try await doors.resume("a", reason: "done")
        #expect(try await opening.value.target == .open)
        let history = try await store.history(of: "a")
        #expect(history.map(\.kind) == [.created, .operator, .operator, .completed])
        #expect(history.last?.event?.contains("open") == true)
        await doors.shutdown()
    }

    @Test func aPauseDuringATransitionIsWrittenAfterItsEntry() async throws {
        let gate = Gate()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.slowDoorSchema(gate), durability: doorDurability(store))
        let door = try await doors.activate(id: "a", data: Door.Data())
        let opening = Task { try await doors.send(to: "a", .open) }
        await gate.untilArrivals(1)
        try await door.pause(reason: "mid-action")
        gate.open()
        #expect(try await opening.value.target == .open)
        try await door.awaitOperatorWrite(await door.pauseWrite())
        let history = try await store.history(of: "a")
        // The transition's completed entry took the place of its intent, under the same number.
        #expect(history.map(\.kind) == [.created, .completed, .operator])
        #expect(history.last?.data == history[1].data && history.last?.state == "open")
        await doors.shutdown()
    }

    @Test func aMachineRestoredMidTransitionAndPausedAtOnceCompletesTheTransitionFirst() async throws {
        let gate = Gate()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.slowDoorSchema(gate), durability: doorDurability(store))
        let ids = (0..<8).map { "a\($0)" }
        for id in ids { try await doors.activate(id: id, data: Door.Data()) }
        let opening = ids.map { id in Task { try await doors.send(to: id, .open) } }
        await gate.untilArrivals(ids.count)
        // The process dies during the actions: the store holds each event's intent.
        let crashed = store.crash()
        let open = Gate()
        open.open()
        let restarted = try Supervisor(schema: try Self.slowDoorSchema(open), durability: doorDurability(crashed))
        // Each pause restores its machine and races the drain that runs the interrupted event.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids { group.addTask { try await restarted.pause(id, reason: "after the crash") } }
            try await group.waitForAll()
        }
        for id in ids {
            let history = try await crashed.history(of: id)
            #expect(history.map(\.kind) == [.created, .completed, .operator], "\(id)")
            #expect(history[1].state == "open" && history[1].data == #"{"openings":1}"#, "\(id)")
            #expect(await restarted.machine(id: id)?.isPaused == true, "\(id)")
        }
        await restarted.shutdown()
        gate.open()
        for task in opening { _ = await task.result }
        await doors.shutdown()
    }

    @Test func aPassivatedOrShutDownPausedMachineComesBackPaused() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.pause("a")
        await doors.shutdown()
        let again = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        do {
            try await again.send(to: "a", .open)
            Issue.record("a paused machine restored by a send took it")
        } catch {
            #expect(error.kind == .paused)
        }
        #expect(await again.machine(id: "a")?.isPaused == true)
        try await again.resume("a")
        #expect(try await again.send(to: "a", .open).target == .open)
        await again.shutdown()
    }

    @Test func aPauseDuringAStoreOutageFailsAndLeavesTheMachineAsStored() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        store.beginOutage()
        do {
            try await doors.pause("a", reason: "during the outage")
            Issue.record("a pause the store did not take succeeded")
        } catch {
            #expect(error.kind == .notDurable)
        }
        store.endOutage()
        // The store holds no pause: the machine comes back from it running.
        #expect(try await doors.send(to: "a", .close).target == .closed)
        #expect(try await store.history(of: "a").allSatisfy { $0.kind != .operator })
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await doors.shutdown()
    }

    @Test func aStoreActsOnAMachineNoProcessRunsButNotOnAnInterruptedOne() async throws {
        let gate = Gate()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.slowDoorSchema(gate), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.activate(id: "b", data: Door.Data())
        let opening = Task { try await doors.send(to: "a", .open) }
        await gate.untilArrivals(1)
        let crashed = store.crash()
        do {
            try await crashed.pause(machine: "a", reason: "after the crash")
            Issue.record("a machine with an interrupted transition was paused in its store")
        } catch {
            #expect(error.message.contains("interrupted its transition 1"))
        }
        try await crashed.pause(machine: "b", reason: "by hand")
        try await crashed.pause(machine: "b", reason: "twice")
        #expect(try await crashed.history(of: "b").compactMap(\.operation?.reason) == ["by hand"])
        let restarted = try Supervisor(schema: try doorSchema(), durability: doorDurability(crashed))
        #expect(try await restarted.restoreAll().restored == 2)
        #expect(await restarted.machine(id: "b")?.isPaused == true)
        #expect(await restarted.machine(id: "a")?.isPaused == false)
        await restarted.shutdown()
        gate.open()
        _ = await opening.result
        await doors.shutdown()
    }

    @Test func pausingAnUnknownMachineIsRefused() async throws {
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(InMemoryStore()))
        do {
            try await doors.pause("nobody")
            Issue.record("an unknown machine was paused")
        } catch {
            #expect(error.kind == .unknownMachine)
        }
        await doors.shutdown()
    }
}
