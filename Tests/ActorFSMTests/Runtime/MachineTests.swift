import ActorFSM
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct MachineTests {
    let turnstile: Schema<NumberedTurnstile>

    init() throws {
        turnstile = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked)
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
                matching(Enforcement.weak) | when(.pass) | then(.locked)
            }
            define(.unlocked) { when(.pass) | then(.locked) }
            define(.alarming) { when(.reset) | then(.locked) }
        }
    }

    @Test func sendReturnsTheRecordOfTheTransition() async throws {
        let gate = Machine(schema: turnstile, id: 7)
        let record = try await gate.send(.coin)
        #expect(record.sequenceNumber == 1)
        #expect(record.machineID == 7)
        #expect(record.source == .locked)
        #expect(record.target == .unlocked)
        #expect(record.outcome.isTransitioned)
        #expect(record.origin == .send)
        #expect(record.transitionLocation != nil)
        #expect(record.completedAt >= record.acceptedAt)
        #expect(await gate.state == .unlocked)
    }

    @Test func predicatesComeFromTheEventOrTheStandingContext() async throws {
        let strict = Machine(schema: turnstile, id: 1,
                             configuration: .init(standingPredicates: PredicateContext(Enforcement.strong)))
        #expect(try await strict.send(.pass).target == .alarming)
        let relaxed = Machine(schema: turnstile, id: 2)
        #expect(try await relaxed.send(.pass, predicates: Enforcement.weak).target == .locked)
        let record = try await relaxed.send(.pass)
        guard case .unhandled(let reason) = record.outcome else {
            Issue.record("expected unhandled, got \(record.outcome)")
            return
        }
        #expect(reason.kind == .missingPredicate)
        #expect(await relaxed.state == .locked)
    }

    @Test func statesStreamStartsWithTheCurrentStateThenEveryChange() async throws {
        let gate = Machine(schema: turnstile, id: 0)
        let states = await gate.stateChanges()
        try await gate.send(.coin)
        try await gate.send(.coin)   // unhandled in unlocked: no change
        try await gate.send(.pass)
        await gate.stop()
        var seen: [State] = []
        for await state in states { seen.append(state) }
        #expect(seen == [.locked, .unlocked, .locked])
    }

    @Test func actionsSeeTheMachineAndCanPostFollowUps() async throws {
        let ids = Later<String>()
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<Turnstile>) in
                    ids.set(context.id)
                    try context.tryPost(.pass)
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let gate = Machine(schema: schema, id: "g")
        let records = await gate.records()
        try await gate.send(.coin)
        let seen = try await first(2, of: records)
        #expect(seen.map(\.event) == [.coin, .pass])
        #expect(seen.map(\.origin) == [.send, .followUp])
        #expect(seen.map(\.sequenceNumber) == [1, 2])
        #expect(ids.get == "g")
        #expect(await gate.state == .locked)
    }

    @Test func awaitingSendOnItsOwnMachineIsDetected() async throws {
        let machine = Later<Machine<NumberedTurnstile>>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { () async throws in _ = try await machine.get?.send(.pass) }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let gate = Machine(schema: schema, id: 1)
        machine.set(gate)
        do {
            try await gate.send(.coin)
            Issue.record("the send should fail")
        } catch {
            #expect(error.kind == .actionFailed)
            #expect((error.underlying as? TurnstileError)?.kind == .reentrantSend)
        }
        #expect(await gate.state == .locked)
    }

    @Test func aCycleOfAwaitedSendsThroughTheInboxIsDetected() async throws {
        let machines = Later<(Machine<NumberedTurnstile>, Machine<NumberedTurnstile>)>()
        let gate = Gate()
        let a = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { () async throws in _ = try await machines.get?.1.send(.coin) }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let b = try Schema<NumberedTurnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.reset) | then() | { await gate.wait() }
                when(.coin) | then(.unlocked) | { () async throws in _ = try await machines.get?.0.send(.pass) }
            }
        }
        let machineA = Machine(schema: a, id: 1)
        let machineB = Machine(schema: b, id: 2)
        machines.set((machineA, machineB))
        // B is busy, so A's action waits in B's inbox; B processes it later, from its drain task.
        let busy = Task { try await machineB.send(.reset) }
        await gate.untilArrivals(1)
        let cycle = Task { try await machineA.send(.coin) }
        await machineB.untilQueued(1)
        gate.open()
        _ = try await busy.value
        do {
            _ = try await cycle.value
            Issue.record("the cycle should be detected")
        } catch {
            let outer = try #require(error as? TurnstileError)
            let inner = try #require(outer.underlying as? TurnstileError)
            #expect(inner.kind == .actionFailed)
            #expect((inner.underlying as? TurnstileError)?.kind == .reentrantSend)
        }
    }

    @Test func anActionThatSuspendsKeepsOtherEventsWaiting() async throws {
        let log = Log()
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<NumberedTurnstile>) async in
                    log.record("start \(context.eventDescription)")
                    await gate.wait()
                    await Task.yield()
                    log.record("end \(context.eventDescription)")
                }
            }
            define(.unlocked) {
                when(.pass) | then(.locked) | { log.record("pass") }
                when(.coin) | then() | { log.record("coin in unlocked") }
            }
        }
        let machine = Machine(schema: schema, id: 0)
        let first = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        let senders = (0..<3).map { index in
            Task { try await machine.send(index == 1 ? .coin : .pass) }
        }
        await machine.untilQueued(3)
        #expect(await machine.state == .locked)
        #expect(log.lines == ["start coin"])
        gate.open()
        #expect(try await first.value.target == .unlocked)
        for sender in senders { _ = try await sender.value }
        let lines = log.lines
        #expect(lines.prefix(2) == ["start coin", "end coin"])
        for (index, line) in lines.enumerated() where line.hasPrefix("start") {
            #expect(index + 1 < lines.count && lines[index + 1].hasPrefix("end"),
                    "another event ran inside a suspended transition: \(lines)")
        }
        #expect(machine.queuedCount == 0)
    }

    @Test func sendersAreServedInArrivalOrder() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { await gate.wait() }
            }
            define(.unlocked) {
                when(.pass) | then(.locked)
                when(.coin) | then(.locked)
            }
        }
        let machine = Machine(schema: schema, id: 0)
        let records = await machine.records()
        let blocker = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        try machine.tryPost(.pass)
        try machine.tryPost(.coin)
        await machine.untilQueued(2)
        gate.open()
        _ = try await blocker.value
        let seen = try await first(3, of: records)
        #expect(seen.map(\.event) == [.coin, .pass, .coin])
        #expect(seen.map(\.sequenceNumber) == [1, 2, 3])
    }
}
