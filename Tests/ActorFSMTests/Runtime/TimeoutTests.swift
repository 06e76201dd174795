import ActorFSM
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct TimeoutTests {
    static let payment = try! Schema<CheckoutFlow>(initial: .pending) {
        define(.pending) {
            when(.pay) | then(.paid)
            when(.poke) | then(.pending)
            when(.ping) | then()
            after(.seconds(30)) | then(.cancelled)
        }
        define(.paid) {
            when(.reopen) | then(.pending)
            when(.ping) | then()
        }
        define(.cancelled) { when(.ping) | then() }
    }

    @Test func aTimeoutFiresWhenItsDurationHasPassedInTheState() async throws {
        var timed = await TimedMachine(Self.payment)
        timed.clock.advance(by: .seconds(29))
        #expect(try await timed.nextIsPing())
        timed.clock.advance(by: .seconds(1))
        let record = try #require(await timed.next())
        #expect(record.event == nil)
        #expect(record.origin == .timeout(after: .seconds(30)))
        #expect(record.source == .pending && record.target == .cancelled && record.outcome.isTransitioned)
        #expect(record.description.contains("pending --after 30s--> cancelled"))
        #expect(await timed.machine.state == .cancelled)
    }

    @Test func leavingTheStateCancelsItsTimeout() async throws {
        var timed = await TimedMachine(Self.payment)
        await timed.clock.waitUntilSleeping(count: 1)
        try await timed.machine.send(.pay)
        // The wait itself ended: the timer holds no sleeper on the clock any more.
        #expect(timed.clock.sleeperCount == 0)
        #expect(await timed.next()?.event == .pay)
        timed.clock.advance(by: .seconds(60))
        #expect(try await timed.nextIsPing())
        #expect(await timed.machine.state == .paid)
    }

    @Test func enteringTheStateAgainArmsItsTimeoutAfresh() async throws {
        var timed = await TimedMachine(Self.payment)
        try await timed.machine.send(.pay)
        timed.clock.advance(by: .seconds(20))
        try await timed.machine.send(.reopen)   // back in pending at +20s: the timeout is due at +50s
        _ = await timed.next()
        _ = await timed.next()
        timed.clock.advance(by: .seconds(20))
        #expect(try await timed.nextIsPing())
        timed.clock.advance(by: .seconds(10))
        let record = try #require(await timed.next())
        #expect(record.origin == .timeout(after: .seconds(30)) && record.target == .cancelled)
    }

    @Test func aSelfTransitionRearmsTheTimeoutOnlyWhenEntryAndExitAlwaysRun() async throws {
        for policy in [EntryExitPolicy.executeOnChangeOnly, .executeAlways] {
            // `.ping` is unhandled in `pending` here: under `.executeAlways` a handled `then()`
            // would re-enter the state and re-arm the timeout itself.
            let schema = try Schema<CheckoutFlow>(initial: .pending, entryExitPolicy: policy) {
                define(.pending) {
                    when(.poke) | then(.pending)
                    after(.seconds(30)) | then(.cancelled)
                }
                define(.cancelled) { when(.ping) | then() }
            }
            var timed = await TimedMachine(schema)
            timed.clock.advance(by: .seconds(20))
            try await timed.machine.send(.poke)
            _ = await timed.next()
            timed.clock.advance(by: .seconds(10))   // +30s: due unless the poke re-armed it
            if policy == .executeAlways {
                #expect(try await timed.nextIsPing())
                timed.clock.advance(by: .seconds(20))   // +50s
            }
            let record = try #require(await timed.next())
            #expect(record.origin == .timeout(after: .seconds(30)), "\(policy)")
        }
    }

    @Test func aTimeoutIsMatchedWithTheMachinesStandingPredicates() async throws {
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled, .reminded]) {
            define(.pending) {
                when(.ping) | then()
                matching(Mode.strict) | after(.seconds(5)) | then(.cancelled)
                matching(Mode.lenient) | after(.seconds(5)) | then(.reminded)
            }
        }
        var lenient = await TimedMachine(schema, standing: PredicateContext(Mode.lenient))
        lenient.clock.advance(by: .seconds(5))
        #expect(await lenient.next()?.target == .reminded)

        var strict = await TimedMachine(schema, standing: PredicateContext(Mode.strict))
        strict.clock.advance(by: .seconds(5))
        #expect(await strict.next()?.target == .cancelled)

        var without = await TimedMachine(schema)
        without.clock.advance(by: .seconds(5))
        let record = try #require(await without.next())
        guard case .unhandled(let reason) = record.outcome else { Issue.record("\(record.outcome)"); return }
        #expect(reason.kind == .missingPredicate)
    }

    @Test func aFalseConditionOnATimeoutGivesAConditionFalseRecord() async throws {
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.paid]) {
            define(.pending) {
                when(.ping) | then()
                condition { false } | after(.seconds(5)) | then(.paid)
            }
        }
        var timed = await TimedMachine(schema)
        timed.clock.advance(by: .seconds(5))
        let record = try #require(await timed.next())
        #expect(record.origin == .timeout(after: .seconds(5)))
        guard case .conditionFalse = record.outcome else { Issue.record("\(record.outcome)"); return }
        #expect(await timed.machine.state == .pending)
    }

    @Test func actionsOnATimeoutSeeNoEventAndTheTimeout() async throws {
        let log = Log()
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.reminded]) {
            define(.pending, onExit: Actions { (context: TransitionContext<CheckoutFlow>) in
                log.record("exit on \(context.eventDescription)")
            }) {
                when(.ping) | then()
                after(.milliseconds(1_500)) | then(.reminded) | { context in
                    log.record("event \(context.event == nil ? "none" : "some"), \(context.timeout?.duration == .milliseconds(1_500))")
                }
            }
        }
        var timed = await TimedMachine(schema)
        timed.clock.advance(by: .seconds(2))
        let record = try #require(await timed.next())
        #expect(record.actionsRun == 2)
        #expect(log.lines == ["exit on after 1500ms", "event none, true"])
    }

    @Test func timeoutsOfSuperStatesAreInheritedAndOverridable() async throws {
        let expiring = SuperState<CheckoutFlow> {
            when(.ping) | then()
            after(.seconds(10)) | then(.cancelled)
        }
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled, .reminded]) {
            define(.pending, adopts: expiring) { when(.pay) | then(.paid) }
            define(.paid, adopts: expiring) { override { after(.seconds(10)) | then(.reminded) } }
        }
        #expect(schema.timeouts(of: .pending) == [Timeout(.seconds(10))])
        var timed = await TimedMachine(schema)
        try await timed.machine.send(.pay)
        _ = await timed.next()
        timed.clock.advance(by: .seconds(10))
        #expect(await timed.next()?.target == .reminded)
    }

    @Test func aStoppedMachineDropsItsTimeouts() async throws {
        var timed = await TimedMachine(Self.payment)
        await timed.clock.waitUntilSleeping(count: 1)
        await timed.machine.stop()
        #expect(timed.clock.sleeperCount == 0)
        timed.clock.advance(by: .seconds(30))
        #expect(await timed.next() == nil)
    }

    /// A machine whose timeout fired while a `.poke` action was suspended at `gate`: the timeout
    /// waits in the inbox, behind the poke that `poke` sends.
    static func timeoutQueuedBehindAction(
        gate: Gate
    ) async throws -> (timed: TimedMachine, poke: Task<CheckoutMachine.Record, any Error>) {
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled]) {
            define(.pending) {
                when(.poke) | then() | { await gate.wait() }
                after(.seconds(30)) | then(.cancelled)
            }
        }
        let timed = await TimedMachine(schema)
        let poke = Task { [machine = timed.machine] in try await machine.send(.poke) }
        await gate.untilArrivals(1)
        timed.clock.advance(by: .seconds(30))   // fires while the poke's action is suspended
        await timed.machine.untilQueued(1)
        return (timed, poke)
    }

    @Test func aTimeoutQueuedBeforeFinishIsStillProcessed() async throws {
        let gate = Gate()
        var (timed, poke) = try await Self.timeoutQueuedBehindAction(gate: gate)
        let finish = Task { [machine = timed.machine] in await machine.shutdown() }
        await timed.machine.untilRefusingEvents()
        gate.open()
        _ = try await poke.value
        await finish.value
        #expect(await timed.next()?.event == .poke)
        let record = try #require(await timed.next())
        #expect(record.origin == .timeout(after: .seconds(30)) && record.target == .cancelled)
        #expect(await timed.next() == nil)
    }

    @Test func aTimeoutQueuedBeforeStopGetsAStoppedRecord() async throws {
        let gate = Gate()
        var (timed, poke) = try await Self.timeoutQueuedBehindAction(gate: gate)
        await timed.machine.stop()
        gate.open()
        _ = try await poke.value
        #expect(await timed.next()?.event == .poke)
        let record = try #require(await timed.next())
        #expect(record.origin == .timeout(after: .seconds(30)) && record.outcomeName == "stopped")
        #expect(await timed.next() == nil)
    }

    @Test func timeoutsDueTogetherArriveShortestFirst() async throws {
        let log = Log()
        let schema = try Schema<CheckoutFlow>(initial: .pending) {
            define(.pending) {
                after(.seconds(30)) | then() | log.action("30s")
                after(.seconds(5)) | then() | log.action("5s")
                after(.seconds(20)) | then() | log.action("20s")
            }
        }
        let chain: [Duration] = [.seconds(5), .seconds(20), .seconds(30)]
        #expect(schema.timeouts(of: .pending).map(\.duration) == chain)
        var timed = await TimedMachine(schema)
        timed.clock.advance(by: .seconds(60))   // all three are due at once
        let durations = [await timed.next(), await timed.next(), await timed.next()].map { $0?.origin.timeout }
        let expected: [Duration?] = [.seconds(5), .seconds(20), .seconds(30)]
        #expect(durations == expected)
        #expect(log.lines == ["5s", "20s", "30s"])
        #expect(timed.clock.sleepCallCount == 3, "one task waited for each deadline in turn")
    }
}
