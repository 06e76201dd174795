import ActorFSM
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct ObservationTests {
    let schema: Schema<NumberedTurnstile>

    init() throws {
        schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
    }

    @Test func everySubscriberSeesEveryRecordInOrder() async throws {
        let machine = Machine(schema: schema, id: 0)
        let subscriptions = [await machine.records(), await machine.records(), await machine.records()]
        for index in 0..<100 { try await machine.send(index.isMultiple(of: 2) ? .coin : .pass) }
        await machine.stop()
        for subscription in subscriptions {
            var numbers: [UInt64] = []
            for await record in subscription { numbers.append(record.sequenceNumber) }
            #expect(numbers == Array(1...100))
        }
    }

    @Test func aSubscriberSeesOnlyWhatHappensAfterItSubscribed() async throws {
        let machine = Machine(schema: schema, id: 0)
        try await machine.send(.coin)
        let late = await machine.records()
        try await machine.send(.pass)
        await machine.stop()
        var numbers: [UInt64] = []
        for await record in late { numbers.append(record.sequenceNumber) }
        #expect(numbers == [2])
    }

    @Test func aSlowSubscriberDropsAndCountsWithoutStallingTheMachine() async throws {
        let machine = Machine(schema: schema, id: 0)
        let newest = await machine.records(buffering: .keepingNewest(2))
        let oldest = await machine.records(buffering: .keepingOldest(3))
        for index in 0..<10 { try await machine.send(index.isMultiple(of: 2) ? .coin : .pass) }
        await machine.stop()
        var kept: [UInt64] = []
        for await record in newest { kept.append(record.sequenceNumber) }
        #expect(kept == [9, 10])
        #expect(newest.droppedCount == 8)
        kept = []
        for await record in oldest { kept.append(record.sequenceNumber) }
        #expect(kept == [1, 2, 3])
        #expect(oldest.droppedCount == 7)
    }

    @Test func aCancelledSubscriberIsRemoved() async throws {
        let machine = Machine(schema: schema, id: 0)
        let kept = await machine.records()
        let cancelled = await machine.records()
        let reader = Task { for await _ in cancelled {} }
        reader.cancel()
        await reader.value
        try await machine.send(.coin)
        #expect(await machine.transitionSubscriberCount == 1)
        #expect(try await first(1, of: kept).map(\.event) == [.coin])
    }

    @Test func aSubscriberThatLeavesItsLoopIsForgottenThoughItsStreamLives() async throws {
        let machine = Machine(schema: schema, id: 0)
        let transitions = await machine.records()
        try await machine.send(.coin)
        for await record in transitions {
            #expect(record.event == .coin)
            break
        }
        try await machine.send(.pass)
        #expect(await machine.transitionSubscriberCount == 0)
    }

    @Test func aStreamReleasedWithoutBeingIteratedIsForgotten() async throws {
        let machine = Machine(schema: schema, id: 0)
        _ = await machine.records()
        let kept = await machine.records()
        try await machine.send(.coin)
        #expect(await machine.transitionSubscriberCount == 1)
        #expect(try await first(1, of: kept).map(\.event) == [.coin])
    }

    @Test func thousandsOfPostedRecordsReachEverySubscriberInOrder() async throws {
        let machine = Machine(schema: schema, id: 0)
        let subscriptions = [await machine.records(), await machine.records(),
                             await machine.records(buffering: .keepingOldest(10_000))]
        let readers = subscriptions.map { subscription in
            Task { try await first(3_000, of: subscription).map(\.sequenceNumber) }
        }
        for index in 0..<3_000 { try await machine.post(index.isMultiple(of: 2) ? .coin : .pass) }
        for reader in readers { #expect(try await reader.value == Array(1...3_000)) }
    }

    @Test func aWaitingSubscriberGetsPostedRecordsOnceTheMachineRunsDry() async throws {
        let machine = Machine(schema: schema, id: 0)
        let transitions = await machine.records()
        let reader = Task { try await first(10, of: transitions).map(\.sequenceNumber) }
        await machine.untilSubscribersWait(1)
        // Fewer records than the wake-up interval: the wake-up comes when the inbox runs dry.
        for index in 0..<10 { try machine.tryPost(index.isMultiple(of: 2) ? .coin : .pass) }
        #expect(try await reader.value == Array(1...10))
    }

    @Test func recordsBeforeASuspendedActionReachSubscribersWhileItWaits() async throws {
        let opening = Gate()
        let last = Gate()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.reset) | then() | { await opening.wait() }
                when(.coin) | then(.unlocked)
            }
            define(.unlocked) { when(.pass) | then(.locked) | { await last.wait() } }
        }
        let machine = Machine(schema: schema, id: 0)
        let transitions = await machine.records()
        // Everything is queued, and the subscriber waits, before the first record.
        try machine.tryPost(.reset)
        try machine.tryPost(.coin)
        try machine.tryPost(.pass)
        await opening.untilArrivals(1)
        let reader = Task { try await first(2, of: transitions).map(\.event) }
        await machine.untilSubscribersWait(1)
        opening.open()
        // The pass's action waits at a gate that opens only after the records before it arrived.
        #expect(try await reader.value == [.reset, .coin])
        last.open()
        await machine.shutdown()
    }

    @Test func aStreamIsIteratedOnce() async throws {
        for buffering in [SubscriptionBuffering.unbounded, .keepingOldest(4)] {
            let machine = Machine(schema: schema, id: 0)
            let transitions = await machine.records(buffering: buffering)
            var firstIterator = transitions.makeAsyncIterator()
            var second = transitions.makeAsyncIterator()
            try await machine.send(.coin)
            #expect(await second.next() == nil)
            #expect(await firstIterator.next()?.event == .coin)
        }
    }
}
