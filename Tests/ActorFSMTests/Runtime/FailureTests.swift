import ActorFSM
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct FailureTests {
    func schema(throwingIn phase: String) throws -> Schema<NumberedTurnstile> {
        try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked, onExit: [{ if phase == "exit" { throw Boom() } }]) {
                when(.coin) | then(.unlocked) | { if phase == "transition" { throw Boom() } }
            }
            define(.unlocked, onEntry: [{ if phase == "entry" { throw Boom() } }]) {
                when(.pass) | then(.locked)
            }
            define(.alarming) { when(.reset) | then(.locked) }
        }
    }

    @Test(arguments: [("exit", State.locked), ("transition", .locked), ("entry", .unlocked)])
    func resumeStaysInTheCommittedStateAndGoesOn(phase: String, committed: State) async throws {
        let machine = Machine(schema: try schema(throwingIn: phase), id: 0)
        let records = await machine.records()
        do {
            try await machine.send(.coin)
            Issue.record("expected a failure")
        } catch {
            #expect(error.kind == .actionFailed)
            #expect(error.underlying is Boom)
        }
        #expect(await machine.state == committed)
        #expect(await !machine.isStopped)
        let record = try await first(1, of: records)[0]
        #expect(record.outcomeName == "failed")
        #expect(record.target == committed)
        #expect(record.actionsRun == ["exit": 0, "transition": 1, "entry": 2][phase])
        let next = try await machine.send(.pass)
        #expect(next.sequenceNumber == 2)
        #expect(next.outcomeName == (committed == .locked ? "unhandled" : "transitioned"))
    }

    @Test func stopStopsTheMachineAndGivesQueuedEventsAnOutcome() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await gate.wait(); throw Boom() } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(failurePolicy: .stop))
        let records = await machine.records()
        let failing = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        try machine.tryPost(.pass)
        let waiting = Task { try await machine.send(.pass) }
        await machine.untilQueued(2)
        gate.open()
        await #expect(throws: TurnstileError.self) { try await failing.value }
        do {
            _ = try await waiting.value
            Issue.record("a queued send should be stopped")
        } catch {
            #expect((error as? TurnstileError)?.kind == .stopped)
        }
        #expect(await machine.isStopped)
        var outcomes: [String] = []
        for await record in records { outcomes.append(record.outcomeName) }
        #expect(outcomes == ["failed", "stopped", "stopped"])
        await #expect(throws: TurnstileError.self) { try await machine.send(.pass) }
    }

    @Test func enterMovesToTheErrorState() async throws {
        let machine = Machine(schema: try schema(throwingIn: "transition"), id: 0,
                              configuration: .init(failurePolicy: .enter(.alarming)))
        let states = await machine.stateChanges()
        await #expect(throws: TurnstileError.self) { try await machine.send(.coin) }
        #expect(await machine.state == .alarming)
        #expect(try await machine.send(.reset).target == .locked)
        #expect(try await first(3, of: states) == [.locked, .alarming, .locked])
    }

    @Test func anErrorStateOutsideTheSchemaLeavesEveryEventUnhandled() async throws {
        enum Extra: MachineDefinition {
            enum State: Hashable, Sendable { case ok, broken }
            typealias Event = Turnstile.Event
            typealias ID = Int
        }
        let schema = try Schema<Extra>(initial: .ok) {
            define(.ok) { when(.coin) | then() | { throw Boom() } }
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(failurePolicy: .enter(.broken)))
        await #expect(throws: MachineError<Extra>.self) { try await machine.send(.coin) }
        #expect(await machine.state == .broken)
        let record = try await machine.send(.coin)
        guard case .unhandled(let reason) = record.outcome else {
            Issue.record("expected unhandled")
            return
        }
        #expect(reason.kind == .unknownState)
    }
}

@Suite(.timeLimit(.minutes(3))) struct LifecycleTests {
    let schema: Schema<NumberedTurnstile>
    let gate = Gate()

    init() throws {
        let gate = self.gate
        schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await gate.wait() } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
    }

    @Test func finishDrainsTheInboxThenStops() async throws {
        let machine = Machine(schema: schema, id: 0)
        let records = await machine.records()
        let blocker = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        try machine.tryPost(.pass)
        try machine.tryPost(.coin)
        let finished = Task { await machine.shutdown() }
        await machine.untilRefusingEvents()
        #expect(await !machine.isAcceptingEvents)
        do {
            try machine.tryPost(.pass)
            Issue.record("a finishing machine should refuse events")
        } catch {
            #expect(error.kind == .stopped)
        }
        gate.open()
        _ = try await blocker.value
        await finished.value
        #expect(await machine.isStopped)
        var seen: [String] = []
        for await record in records { seen.append("\(record.eventDescription) \(record.outcomeName)") }
        #expect(seen == ["coin transitioned", "pass transitioned", "coin transitioned"])
    }

    @Test func stopCancelsTheActionInFlightAndStopsWhatWaits() async throws {
        let cancelled = Later<Bool>()
        let started = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.coin) | then(.unlocked) | {
                    await started.wait()
                    let released = Gate()
                    await withTaskCancellationHandler { await released.wait() } onCancel: {
                        cancelled.set(true)
                        released.open()
                    }
                }
            }
        }
        let machine = Machine(schema: schema, id: 0)
        started.open()
        let inFlight = Task { try await machine.send(.coin) }
        await started.untilArrivals(1)
        let queued = Task { try await machine.send(.coin) }
        await machine.untilQueued(1)
        await machine.stop()
        do {
            _ = try await queued.value
            Issue.record("the queued send should be stopped")
        } catch {
            #expect((error as? TurnstileError)?.kind == .stopped)
        }
        #expect(try await inFlight.value.outcome.isTransitioned)
        #expect(cancelled.get == true)
    }

    @Test func stopFreesAnActionThatAwaitsADetachedSendToItsOwnMachine() async throws {
        // The detached task does not inherit the action's task-local scope, so the machine
        // cannot tell that this send waits for the action that waits for it.
        let target = Later<Machine<NumberedTurnstile>>()
        let outcome = Later<String>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | {
                    guard let machine = target.get else { return }
                    do {
                        _ = try await Task.detached { try await machine.send(.pass) }.value
                        outcome.set("sent")
                    } catch {
                        outcome.set("\((error as? TurnstileError)?.kind.description ?? "other")")
                    }
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0)
        target.set(machine)
        let records = await machine.records()
        let first = Task { try await machine.send(.coin) }
        await machine.untilQueued(1)
        await machine.stop()
        // The detached send is answered at once, so the action and the first send complete.
        #expect(try await first.value.outcome.isTransitioned)
        #expect(outcome.get == "stopped")
        // The queued event still gets its record, after the one that was in progress.
        var seen: [String] = []
        for await record in records { seen.append("\(record.sequenceNumber) \(record.eventDescription) \(record.outcomeName)") }
        #expect(seen == ["1 coin transitioned", "2 pass stopped"])
    }

    @Test func stopAnswersAnAwaitedSendQueuedBehindTheEventInProgress() async throws {
        let first = Gate()
        let second = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                when(.reset) | then(.unlocked) | { await first.wait() }
                when(.pass) | then(.alarming)
            }
            define(.unlocked) { when(.coin) | then(.locked) | { await second.wait() } }
        }
        let machine = Machine(schema: schema, id: 0)
        let inline = Task { try await machine.send(.reset) }
        await first.untilArrivals(1)
        // Queued behind the busy machine: a post, then an awaited send.
        try machine.tryPost(.coin)
        let sender = Task { try await machine.send(.pass) }
        await machine.untilQueued(2)
        first.open()
        // The post's action now runs, and will not finish before the sender is answered.
        await second.untilArrivals(1)
        await machine.stop()
        await #expect(throws: TurnstileError.self) { try await sender.value }
        second.open()
        #expect(try await inline.value.outcome.isTransitioned)
    }

    @Test func stoppingDuringASuspendedActionKeepsOneOrderedOutcomePerEvent() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<NumberedTurnstile>) async throws in
                    try context.tryPost(.pass)
                    await gate.wait()
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0)
        let records = await machine.records()
        let inFlight = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        try machine.tryPost(.pass)
        try machine.tryPost(.coin)
        await machine.stop()
        gate.open()
        _ = try await inFlight.value
        var seen: [String] = []
        for await record in records { seen.append("#\(record.sequenceNumber) \(record.eventDescription) \(record.outcomeName)") }
        // The follow-up was queued when the action posted it, ahead of the two posted later.
        #expect(seen == ["#1 coin transitioned", "#2 pass stopped", "#3 pass stopped", "#4 coin stopped"])
    }

    @Test func cancellingAWaitingSenderWithdrawsItsEvent() async throws {
        let machine = Machine(schema: schema, id: 0)
        let records = await machine.records()
        let blocker = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        let withdrawn = Task { try await machine.send(.pass) }
        await machine.untilQueued(1)
        withdrawn.cancel()
        do {
            _ = try await withdrawn.value
            Issue.record("the cancelled send should throw")
        } catch {
            #expect((error as? TurnstileError)?.kind == .cancelled)
        }
        #expect(machine.queuedCount == 0)
        gate.open()
        _ = try await blocker.value
        try await machine.send(.pass)
        let seen = try await first(2, of: records)
        #expect(seen.map(\.event) == [.coin, .pass])
        #expect(seen.map(\.sequenceNumber) == [1, 2])
    }

    @Test func finishFromAnActionStopsOnceTheInboxIsEmpty() async throws {
        let machine = Later<Machine<NumberedTurnstile>>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await machine.get?.shutdown() } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let gate = Machine(schema: schema, id: 0)
        machine.set(gate)
        let records = await gate.records()
        try await gate.send(.coin)
        #expect(await gate.isStopped)
        var count = 0
        for await _ in records { count += 1 }
        #expect(count == 1)
    }

    @Test func lateFollowUpsArriveInOrder() async throws {
        let started = Later<Task<Void, Never>>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<NumberedTurnstile>) in
                    started.set(Task.detached {
                        for _ in 0..<10 { try? context.tryPost(.pass) }
                    })
                }
                when(.pass) | then(.locked)
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0)
        let records = await machine.records()
        try await machine.send(.coin)
        await started.get?.value
        let seen = try await first(11, of: records)
        #expect(seen.map(\.sequenceNumber) == Array(1...11))
        #expect(seen.dropFirst().allSatisfy { $0.origin == .followUp && $0.event == .pass })
    }

    @Test func aStoppedMachineRefusesEventsAndItsStreamsFinish() async throws {
        let machine = Machine(schema: schema, id: 0)
        await machine.stop()
        await #expect(throws: TurnstileError.self) { try await machine.send(.pass) }
        #expect(throws: TurnstileError.self) { try machine.tryPost(.pass) }
        var count = 0
        for await _ in await machine.records() { count += 1 }
        #expect(count == 0)
    }
}
