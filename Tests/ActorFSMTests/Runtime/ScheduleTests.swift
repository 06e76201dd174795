import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct ScheduleTests {
    static let reminders = try! Schema<CheckoutFlow>(initial: .pending, final: [.cancelled]) {
        define(.pending) {
            when(.ping) | then()
            when(.pay) | then(.paid) | { context in try context.schedule(.retry, after: .seconds(5)) }
            matching(Mode.strict) | when(.retry) | then(.reminded)
            matching(Mode.lenient) | when(.retry) | then(.cancelled)
        }
        define(.paid) {
            when(.ping) | then()
            when(.retry) | then(.reminded)
        }
        define(.reminded) { when(.ping) | then() }
    }

    @Test func anEventPostedWithADelayArrivesWhenTheDelayHasPassed() async throws {
        var timed = await TimedMachine(Self.reminders)
        let scheduled = try timed.machine.schedule(.retry, after: .seconds(5), predicates: PredicateContext(Mode.strict))
        timed.clock.advance(by: .seconds(4))
        #expect(try await timed.nextIsPing())
        #expect(scheduled.isPending)
        timed.clock.advance(by: .seconds(1))
        let record = try #require(await timed.next())
        // `.reminded` is the target under `Mode.strict` only: the predicates came with the event.
        #expect(record.event == .retry && record.origin == .scheduled && record.target == .reminded)
        #expect(!scheduled.isPending)
        #expect(!scheduled.cancel(), "a delivered event can no longer be cancelled")
    }

    @Test func anActionCanPostAnEventWithADelay() async throws {
        var timed = await TimedMachine(Self.reminders)
        try await timed.machine.send(.pay)
        #expect(await timed.next()?.event == .pay)
        timed.clock.advance(by: .seconds(5))
        let record = try #require(await timed.next())
        #expect(record.event == .retry && record.origin == .scheduled)
        #expect(record.source == .paid && record.target == .reminded)
    }

    @Test func cancellingTheHandleWithdrawsTheEvent() async throws {
        var timed = await TimedMachine(Self.reminders)
        let scheduled = try timed.machine.schedule(.retry, after: .seconds(5))
        await timed.clock.waitUntilSleeping(count: 1)
        #expect(scheduled.cancel())
        #expect(!scheduled.isPending)
        #expect(!scheduled.cancel(), "a second cancel finds nothing to cancel")
        #expect(timed.clock.sleeperCount == 0, "the wait itself ended")
        timed.clock.advance(by: .seconds(10))
        #expect(try await timed.nextIsPing())
        #expect(await timed.machine.state == .pending)
    }

    @Test func stoppingTheMachineCancelsEveryScheduledEvent() async throws {
        var timed = await TimedMachine(Self.reminders)
        let fromOutside = try timed.machine.schedule(.retry, after: .seconds(60))
        try await timed.machine.send(.pay)   // its action posts .retry in 5 s
        await timed.clock.waitUntilSleeping(count: 2)
        await timed.machine.stop()
        #expect(!fromOutside.isPending)
        #expect(timed.clock.sleeperCount == 0)
        timed.clock.advance(by: .seconds(60))
        #expect(await timed.next()?.event == .pay)
        #expect(await timed.next() == nil, "nothing was delivered after the stop")
        #expect(throws: MachineError<CheckoutFlow>.self) { try timed.machine.schedule(.retry, after: .seconds(1)) }
    }

    @Test func finishingTheMachineCancelsDelayedPostsAndRefusesNewOnes() async throws {
        let timed = await TimedMachine(Self.reminders)
        let scheduled = try timed.machine.schedule(.retry, after: .seconds(5))
        await timed.machine.shutdown()
        #expect(!scheduled.isPending)
        do {
            try timed.machine.schedule(.retry, after: .seconds(5))
            Issue.record("a finished machine took a scheduled event")
        } catch {
            #expect(error.kind == .stopped)
        }
    }
}
