import ActorFSM
import Testing
import TestSupport

/// A turnstile whose reset always fails: what the supervision tests restart.
func failingResetSchema() throws -> Schema<NumberedTurnstile> {
    try Schema<NumberedTurnstile>(initial: .locked, final: [.alarming]) {
        define(.locked) {
            when(.coin) | then(.unlocked)
            when(.reset) | then(.alarming) | { throw Boom() }
        }
        define(.unlocked) { when(.pass) | then(.locked) }
    }
}

@Suite(.timeLimit(.minutes(3))) struct SupervisorTests {
    let schema: Schema<NumberedTurnstile>

    init() throws { schema = try failingResetSchema() }

    @Test func spawnsLooksUpSendsAndCounts() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        try supervisor.spawn(id: 1)
        try supervisor.spawn(id: 2, startingIn: .unlocked)
        #expect(supervisor.count == 2)
        #expect(throws: TurnstileError.self) { try supervisor.spawn(id: 1) }
        #expect(try await supervisor.send(to: 1, .coin).target == .unlocked)
        #expect(try await supervisor.send(to: 2, .pass).target == .locked)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 99, .coin) }
        #expect(await supervisor.machine(id: 1)?.state == .unlocked)
        await supervisor.stop(id: 1)
        #expect(supervisor.count == 1)
        #expect(supervisor.machine(id: 1) == nil)
    }

    @Test func theMergedStreamTagsRecordsWithTheirMachine() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        let events = supervisor.reports()
        for id in 0..<3 { try supervisor.spawn(id: id) }
        for id in 0..<3 { try await supervisor.send(to: id, .coin) }
        let records = try await first(3, of: events).compactMap(\.record)
        #expect(Set(records.map(\.machineID)) == [0, 1, 2])
        #expect(records.allSatisfy { $0.target == .unlocked })
    }

    @Test func aFailedMachineIsRestartedInTheInitialState() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        let events = supervisor.reports()
        let original = try supervisor.spawn(id: 7)
        try await supervisor.send(to: 7, .coin)
        try await supervisor.send(to: 7, .pass)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 7, .reset) }
        let seen = try await first(4, of: events)
        guard case .restarted(let id, let error) = seen[3] else {
            Issue.record("expected a restart, got \(seen[3])")
            return
        }
        #expect(id == 7)
        #expect(error is Boom)
        #expect(seen[2].record?.outcomeName == "failed")
        #expect(await original.isStopped)
        let replacement = try #require(supervisor.machine(id: 7))
        #expect(replacement !== original)
        #expect(await replacement.state == .locked)
        #expect(try await supervisor.send(to: 7, .coin).sequenceNumber == 1)
    }

    @Test func tooManyRestartsEscalate() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: schema,
            configuration: .init(intensity: RestartIntensity(maxRestarts: 2, within: .seconds(3_600))))
        let events = supervisor.reports()
        try supervisor.spawn(id: 1)
        try supervisor.spawn(id: 2)
        for _ in 0..<3 { await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) } }
        var decisions: [String] = []
        for await event in events {
            switch event {
            case .transition: break
            case .restarted(let id, _): decisions.append("restarted \(id)")
            case .terminated(let id, _): decisions.append("terminated \(id)")
            case .escalated(let id, _): decisions.append("escalated \(id)")
            case .passivated(let id): decisions.append("passivated \(id)")
            }
        }
        #expect(decisions == ["restarted 1", "restarted 1", "escalated 1"])
        #expect(supervisor.count == 0)
        #expect(supervisor.isShutDown)
        #expect(supervisor.escalation?.id == 1)
        #expect(supervisor.escalation?.error is Boom)
        #expect(throws: TurnstileError.self) { try supervisor.spawn(id: 3) }
        // Its machines are gone with it: a sender is told why, not that the id is unknown.
        for id in [1, 2] {
            let error = await #expect(throws: TurnstileError.self) { try await supervisor.send(to: id, .coin) }
            #expect(error?.kind == .stopped)
            #expect(error?.description.contains("the supervisor is shut down") == true)
            #expect(throws: TurnstileError.self) { try supervisor.tryPost(to: id, .coin) }
        }
    }

    @Test func aRestartWindowOfZeroOrLessIsRefused() async {
        let zero = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RestartIntensity(maxRestarts: 3, within: .zero)
        }
        let message = String(decoding: zero?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("the period must be longer than zero"))
        await #expect(processExitsWith: .failure) { _ = RestartIntensity(maxRestarts: 3, within: .seconds(-1)) }
        await #expect(processExitsWith: .failure) { _ = RestartIntensity(maxRestarts: -1, within: .seconds(1)) }
        #expect(RestartIntensity(maxRestarts: 0, within: .nanoseconds(1)).period == .nanoseconds(1))
    }

    @Test func restartsOutsideTheIntensityWindowDoNotCount() async throws {
        let clock = ManualInstant()
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: schema, configuration: .init(intensity: RestartIntensity(maxRestarts: 1, within: .seconds(10))),
            now: { clock.now })
        try supervisor.spawn(id: 1)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        clock.advance(by: .seconds(11))
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        #expect(!supervisor.isShutDown)
        clock.advance(by: .seconds(5))
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        await supervisor.shutdown()
        #expect(supervisor.escalation?.id == 1)
    }

    @Test func theEscalateStrategyStopsEverythingOnTheFirstFailure() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema, configuration: .init(restartStrategy: .escalate))
        let events = supervisor.reports()
        let bystander = try supervisor.spawn(id: 2)
        try supervisor.spawn(id: 1)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        var last: String?
        for await event in events {
            if case .escalated(let id, _) = event { last = "escalated \(id)" }
        }
        #expect(last == "escalated 1")
        #expect(await bystander.isStopped)
    }

    @Test func aSubscriberThatStopsListeningIsRemovedAtOnce() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        let events = supervisor.reports()
        let kept = supervisor.reports()
        #expect(supervisor.listenerCount == 2)
        let reader = Task { for await _ in events {} }
        reader.cancel()
        await reader.value
        // Removed when its consumer went, not at the next record: nothing was published.
        #expect(supervisor.listenerCount == 1)
        await supervisor.shutdown()
        var count = 0
        for await _ in kept { count += 1 }
        #expect(count == 0)
        #expect(supervisor.listenerCount == 0)
    }

    @Test func leaveStoppedRemovesTheFailedMachine() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema, configuration: .init(restartStrategy: .leaveStopped))
        let events = supervisor.reports()
        try supervisor.spawn(id: 1)
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 1, .reset) }
        let seen = try await first(2, of: events)
        guard case .terminated(let id, .failed) = seen[1] else {
            Issue.record("expected termination, got \(seen[1])")
            return
        }
        #expect(id == 1)
        #expect(supervisor.count == 0)
    }

    @Test func shutdownDrainsQueuedEvents() async throws {
        let gate = Gate()
        let slow = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await gate.wait() } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let supervisor = Supervisor<NumberedTurnstile>(schema: slow)
        let events = supervisor.reports()
        // Ten busy machines and five idle ones.
        for id in 0..<15 { try supervisor.spawn(id: id) }
        for id in 0..<10 {
            try supervisor.tryPost(to: id, .coin)
            try supervisor.tryPost(to: id, .pass)
        }
        await gate.untilArrivals(10)
        let machines = (0..<15).compactMap { supervisor.machine(id: $0) }
        let shutdown = Task { await supervisor.shutdown() }
        for machine in machines { await machine.untilRefusingEvents() }
        // A second call waits for the first; the machines stay reachable meanwhile.
        let again = Task { await supervisor.shutdown() }
        #expect(supervisor.machine(id: 3) === machines[3])
        // Every machine refuses new events before the busy ones have drained.
        for machine in machines { #expect(throws: TurnstileError.self) { try machine.tryPost(.coin) } }
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 12, .coin) }
        gate.open()
        await again.value
        #expect(supervisor.count == 0, "the second call returned once the first was done")
        await shutdown.value
        var outcomes: [String: Int] = [:]
        var terminated: [Int] = []
        for await event in events {
            if let record = event.record { outcomes["\(record.eventDescription) \(record.outcomeName)", default: 0] += 1 }
            if case .terminated(let id, .shutDown) = event { terminated.append(id) }
        }
        #expect(outcomes == ["coin transitioned": 10, "pass transitioned": 10])
        #expect(terminated.sorted() == Array(0..<15))
        #expect(supervisor.count == 0)
        for machine in machines { #expect(await machine.isStopped) }
    }
}
