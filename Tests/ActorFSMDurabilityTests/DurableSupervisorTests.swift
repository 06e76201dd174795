import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

struct Jam: Error {}

@Suite(.timeLimit(.minutes(3))) struct DurableSupervisorTests {
    @Test func restoreAllBringsBackEveryMachineButThoseInFinalStates() async throws {
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) { when(.open) | then(.open) | { context in context.data.openings += 1 } ; when(.kick) | then(.jammed) }
            define(.open) { when(.close) | then(.closed) }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(store))
        for id in ["a", "b", "c", "d"] { try await doors.activate(id: id, data: Door.Data(openings: 7)) }
        try await doors.send(to: "a", .open)
        try await doors.send(to: "b", .open)
        try await doors.send(to: "b", .close)
        try await doors.send(to: "c", .kick)
        await doors.shutdown()

        let restarted = try Supervisor(schema: schema, durability: doorDurability(store.crash()))
        #expect(try await restarted.restoreAll().restored == 3)
        #expect(await restarted.machine(id: "a")?.state == .open)
        #expect(await restarted.machine(id: "b")?.data == Door.Data(openings: 8))
        // Sent nothing, it is stored all the same, with the data it was made with.
        #expect(await restarted.machine(id: "d")?.data == Door.Data(openings: 7))
        #expect(restarted.machine(id: "c") == nil)
        // First use brings back the finished one too.
        let record = try await restarted.send(to: "c", .open)
        #expect(record.source == .jammed && record.sequenceNumber == 2)
        await restarted.shutdown()
    }

    @Test func aMachineSentNothingComesBackAfterPassivationWithItsData() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "idle", data: Door.Data(openings: 3))
        #expect(await doors.passivateIdle(longerThan: .zero) == 1)
        #expect(doors.machine(id: "idle") == nil)
        let record = try await doors.send(to: "idle", .open)
        #expect(record.sequenceNumber == 1 && record.target == .open)
        #expect(await doors.machine(id: "idle")?.data.openings == 4)
        await doors.shutdown()
    }

    @Test func aRestartResumesFromTheLastStoredStateNotTheInitialOne() async throws {
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed, final: []) {
            define(.closed) { when(.open) | then(.open) | { context in context.data.openings += 1 } }
            define(.open) {
                when(.close) | then(.closed)
                when(.kick) | then(.jammed) | { _ in throw Jam() }
            }
            define(.jammed) { when(.close) | then(.closed) }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(store), configuration: SupervisorConfiguration(
            machine: MachineConfiguration(failurePolicy: .stop), restartStrategy: .restart))
        var reports = doors.reports().makeAsyncIterator()
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .kick) }
        while let report = await reports.next() {
            if case .restarted = report { break }
        }
        let restarted = try #require(doors.machine(id: "a"))
        #expect(await restarted.state == .open)
        #expect(await restarted.data.openings == 1)
        #expect(try await restarted.send(.close).sequenceNumber == 3)
        await doors.shutdown()
    }

    @Test func eventsStoppedBehindAFailureDoNotTakeTheNumbersOfTheRestartedMachine() async throws {
        let gate = ActionGate()
        let calls = ChargeGateway()
        let schema = try Schema<Door>(initial: .closed, final: []) {
            define(.closed) {
                when(.kick) | then(.jammed) | { _ in
                    await calls.charge("kick")
                    await gate.pass()
                    throw Jam()
                }
                when(.open) | then(.open)
            }
            define(.open) { when(.close) | then(.closed) }
            define(.jammed) { when(.unlock) | then(.closed) }
        }
        let store = InMemoryStore()
        let doors = try Supervisor(schema: schema, durability: doorDurability(store), configuration: SupervisorConfiguration(
            machine: MachineConfiguration(failurePolicy: .stop), restartStrategy: .restart))
        var reports = doors.reports().makeAsyncIterator()
        let first = try await doors.activate(id: "d", data: Door.Data())
        try await first.send(.open)
        try await first.send(.close)
        let kicking = Task { try await first.send(.kick) }
        await calls.waitForCalls(1)
        // Two events wait behind the failing one; the old machine records them as stopped.
        try first.tryPost(.open)
        try first.tryPost(.open)
        await gate.open()
        _ = await kicking.result
        while let report = await reports.next() {
            if case .restarted = report { break }
        }
        let restarted = try #require(doors.machine(id: "d"))
        #expect(restarted !== first)
        let record = try await restarted.send(.open)
        await doors.shutdown()
        // Whatever the old machine recorded before the restart took over, the store's numbers
        // run without a gap or an overwrite up to the restarted machine's event.
        #expect(try await store.entries(of: "d").map(\.sequenceNumber) == Array(0...record.sequenceNumber))
        let again = try await Machine(schema: schema, id: "d", data: Door.Data(), durability: doorDurability(store.crash()))
        #expect(await again.state == .open)
    }

    @Test func aRestartedMachineKeepsItsStatesTimeoutDeadline() async throws {
        let clock = ManualClock()
        let schema = try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) { when(.lock) | then(.locked) }
            define(.locked) {
                when(.kick) | then() | { _ in throw Jam() }
                after(.seconds(60)) | then(.jammed)
            }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(InMemoryStore(), clock: clock),
                                   configuration: SupervisorConfiguration(
                                       machine: MachineConfiguration(failurePolicy: .stop, clock: clock),
                                       restartStrategy: .restart))
        var reports = doors.reports().makeAsyncIterator()
        try await doors.activate(id: "d", data: Door.Data())
        try await doors.send(to: "d", .lock)
        clock.advance(by: .seconds(40))
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "d", .kick) }
        while let report = await reports.next() {
            if case .restarted = report { break }
        }
        // The replacement waits for the 20 seconds left, not for 60 again.
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(20))
        while let report = await reports.next() {
            if case .transition(let record) = report, record.origin == .timeout(after: .seconds(60)) {
                #expect(record.target == .jammed)
                break
            }
        }
        await doors.shutdown()
    }

    @Test func aPausedMachineIsNotPassivatedAwayFromItsPause() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let door = try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        try await door.pause()
        #expect(await !doors.passivate(id: "a"))
        #expect(await doors.passivateIdle(longerThan: .zero) == 0)
        #expect(doors.machine(id: "a") === door)
        #expect(await door.isPaused)
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .close) }
        await door.resume()
        #expect(await doors.passivate(id: "a"))
        // The pause and the resume took numbers 2 and 3.
        #expect(try await doors.send(to: "a", .close).sequenceNumber == 4)
        await doors.shutdown()
    }

    @Test func aPassivatedMachineComesBackOnItsNextEvent() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        #expect(await doors.passivate(id: "a"))
        #expect(doors.machine(id: "a") == nil)
        let record = try await doors.send(to: "a", .close)
        #expect(record.source == .open && record.sequenceNumber == 2)
        #expect(doors.count == 1)
        await doors.shutdown()
    }

    @Test func idleMachinesAndThoseBeyondTheLimitArePassivated() async throws {
        let clock = ManualClock()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(InMemoryStore(), clock: clock))
        for id in ["a", "b", "c", "d"] { try await doors.activate(id: id, data: Door.Data()) }
        clock.advance(by: .seconds(50))
        try await doors.send(to: "c", .open)
        clock.advance(by: .seconds(5))
        try await doors.send(to: "d", .open)
        clock.advance(by: .seconds(20))
        // a and b wrote nothing for 75 s; c for 25 s, d for 20 s.
        #expect(await doors.passivateIdle(longerThan: .seconds(60)) == 2)
        #expect(doors.machine(id: "a") == nil && doors.machine(id: "b") == nil)
        #expect(await doors.passivateIdle(longerThan: .seconds(60), keepingAtMost: 1) == 1)
        #expect(doors.machine(id: "c") == nil && doors.machine(id: "d") != nil)
        #expect(try await doors.send(to: "c", .close).sequenceNumber == 2)
        await doors.shutdown()
    }

    @Test func aSupervisorWithPassivationSweepsOnItsClock() async throws {
        let clock = ManualClock()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(InMemoryStore(), clock: clock),
                                   configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)),
                                   passivation: Passivation(afterIdle: .seconds(60)))
        var reports = doors.reports().makeAsyncIterator()
        try await doors.activate(id: "a", data: Door.Data())
        // The sweeper sleeps until 30 s; it wakes at 60 s, when the machine has been idle for 60.
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(60))
        while let report = await reports.next() {
            if case .passivated(let id) = report, id == "a" { break }
        }
        #expect(doors.count == 0)
        await doors.shutdown()
    }

    @Test func concurrentFirstUsesRestoreOneMachine() async throws {
        let store = InMemoryStore()
        let first = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await first.activate(id: "a", data: Door.Data())
        try await first.send(to: "a", .open)
        await first.shutdown()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let machines = await withTaskGroup(of: Machine<Door>?.self) { group in
            for _ in 0..<20 { group.addTask { try? await doors.activate(id: "a", data: Door.Data()) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let distinct = Set(machines.compactMap { $0.map(ObjectIdentifier.init) })
        #expect(distinct.count == 1)
        #expect(await doors.machine(id: "a")?.state == .open)
        await doors.shutdown()
    }

    /// A door whose opening waits at `gate`, heedless of cancellation.
    static func doorOpening(at gate: Gate) throws -> Schema<Door> {
        try Schema<Door>(initial: .closed, final: []) {
            define(.closed) { when(.open) | then(.open) | { (_: TransitionContext<Door>) async in await gate.wait() } }
            define(.open) { when(.close) | then(.closed) }
        }
    }

    /// A send that waits for a stopping machine to end, so that its successor takes the event,
    /// gives up at once when its task is cancelled, though the machine's action runs on.
    @Test func aCancelledSendToAStoppingMachineReturnsAtOnce() async throws {
        let gate = Gate()
        let schema = try Self.doorOpening(at: gate)
        let doors = try Supervisor(schema: schema, durability: doorDurability(InMemoryStore()))
        let door = try await doors.activate(id: "a", data: Door.Data())
        let opening = Task { try await doors.send(to: "a", .open) }
        await gate.untilArrivals(1)
        // Stopped, it waits for its action, which does not heed the cancellation.
        await door.stop()
        let closing = Task { try await doors.send(to: "a", .close) }
        await door.untilEndAwaited(1)
        closing.cancel()
        await #expect { try await closing.value } throws: { ($0 as? MachineError<Door>)?.kind == .cancelled }
        #expect(doors.machine(id: "a") === door)
        gate.open()
        // The action did not throw: its transition completed, and was written.
        #expect(try await opening.value.target == .open)
        // The machine has ended; the next send restores it from the store.
        let record = try await doors.send(to: "a", .close)
        #expect(record.source == .open && record.target == .closed && doors.machine(id: "a") !== door)
        await doors.shutdown()
    }

    /// A shutdown waits for a machine that was stopping when it began: the machine's last
    /// record is written and its end reported before the report stream finishes.
    @Test func shutdownWaitsForAMachineThatWasStoppingAlready() async throws {
        let gate = Gate()
        let schema = try Self.doorOpening(at: gate)
        let store = InMemoryStore()
        let doors = try Supervisor(schema: schema, durability: doorDurability(store))
        let reports = doors.reports()
        let door = try await doors.activate(id: "a", data: Door.Data())
        let opening = Task { try await doors.send(to: "a", .open) }
        await gate.untilArrivals(1)
        await door.stop()
        let shuttingDown = Task { await doors.shutdown() }
        await door.untilEndAwaited(1)
        gate.open()
        await shuttingDown.value
        #expect(try await opening.value.target == .open)
        var ends: [String] = []
        for await report in reports {
            if case .terminated(let id, let termination) = report { ends.append("\(id) \(termination)") }
        }
        #expect(ends == ["a stopped"])
        let restarted = try Supervisor(schema: schema, durability: doorDurability(store))
        #expect(try await restarted.restore(id: "a").state == .open)
        await restarted.shutdown()
    }
}
