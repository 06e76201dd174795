import ActorFSM
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct BackPressureTests {
    @Test func aFullInboxRefusesPostsAndMakesSendsWait() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await gate.wait() } }
            define(.unlocked) {
                when(.pass) | then(.locked)
                when(.reset) | then(.alarming)
            }
            define(.alarming) { when(.reset) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(inboxCapacity: 1))
        let records = await machine.records()
        let blocker = Task { try await machine.send(.coin) }
        await gate.untilArrivals(1)
        try machine.tryPost(.reset)
        do {
            try machine.tryPost(.pass)
            Issue.record("a full inbox should refuse a post")
        } catch {
            #expect(error.kind == .inboxFull)
        }
        let waiting = Task { try await machine.send(.reset) }
        await machine.untilWaitingForRoom(1)
        let alsoWaiting = Task { try await machine.send(.reset) }
        await machine.untilWaitingForRoom(2)
        #expect(machine.queuedCount == 1)
        do {
            try machine.tryPost(.pass)
            Issue.record("a post must not overtake senders waiting for room")
        } catch {
            #expect(error.kind == .inboxFull)
        }
        gate.open()
        _ = try await blocker.value
        _ = try await waiting.value
        _ = try await alsoWaiting.value
        let seen = try await first(4, of: records)
        #expect(seen.map(\.event) == [.coin, .reset, .reset, .reset])
        #expect(seen.map(\.target) == [.unlocked, .alarming, .locked, .locked])
    }

    @Test func consumeFeedsASequenceInOrderWithBackPressure() async throws {
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await gate.wait() } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(inboxCapacity: 2))
        let records = await machine.records()
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        for index in 0..<100 { continuation.yield(index.isMultiple(of: 2) ? .coin : .pass) }
        continuation.finish()
        let consumer = Task { try await machine.post(contentsOf: events) }
        await machine.untilWaitingForRoom(1)
        // consume had to wait for room, and the inbox holds no more than its capacity.
        #expect(machine.queuedCount <= 2)
        gate.open()
        try await consumer.value
        await machine.shutdown()
        var count = 0
        for await record in records {
            #expect(record.outcome.isTransitioned)
            #expect(record.origin == .post)
            count += 1
        }
        #expect(count == 100)
        #expect(await machine.state == .locked)
    }

    @Test func anActionThatPostsIntoItsOwnFullInboxIsRefusedRatherThanWaitingForever() async throws {
        let machine = Later<Machine<NumberedTurnstile>>()
        let gate = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { () async throws in
                    await gate.wait()
                    try await machine.get?.post(.pass)
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let gateMachine = Machine(schema: schema, id: 0, configuration: .init(inboxCapacity: 1))
        machine.set(gateMachine)
        let first = Task { try await gateMachine.send(.coin) }
        await gate.untilArrivals(1)
        try gateMachine.tryPost(.pass)
        gate.open()
        do {
            _ = try await first.value
            Issue.record("the action should fail")
        } catch {
            #expect(((error as? TurnstileError)?.underlying as? TurnstileError)?.kind == .inboxFull)
        }
    }

    @Test func followUpsBeyondTheInboxCapacityAreRefused() async throws {
        let accepted = Later<[MachineErrorKind?]>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<NumberedTurnstile>) in
                    accepted.set((0..<5).map { _ -> MachineErrorKind? in
                        do { try context.tryPost(.pass); return nil } catch { return (error as? TurnstileError)?.kind }
                    })
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let machine = Machine(schema: schema, id: 0, configuration: .init(inboxCapacity: 3))
        try await machine.send(.coin)
        #expect(accepted.get == [nil, nil, nil, .inboxFull, .inboxFull])
    }

    @Test func postContentsOfTakesPredicatesWithEachEvent() async throws {
        let schema = try Schema<NumberedTurnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
                matching(Enforcement.weak) | when(.pass) | then(.locked)
            }
        }
        let machine = Machine(schema: schema, id: 0)
        let envelopes = AsyncStream<Envelope<Event>> { continuation in
            continuation.yield(Envelope(.pass, predicates: PredicateContext(Enforcement.weak)))
            continuation.yield(Envelope(.pass, predicates: PredicateContext(Enforcement.strong)))
            continuation.finish()
        }
        try await machine.post(contentsOf: envelopes)
        await machine.shutdown()
        #expect(await machine.state == .alarming)
    }
}
