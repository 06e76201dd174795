import ActorFSM
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// `pause()` and `resume()`: a paused machine takes nothing new and processes nothing, and
/// what came meanwhile is processed after the resume, in order. Each action logs whether the
/// test had resumed the machine when it ran, so an event processed while paused shows.
@Suite(.timeLimit(.minutes(3))) struct PauseTests {
    /// Set by the test just before `resume()`.
    final class Resumed: Sendable {
        private let flag = Atomic<Bool>(false)
        func resume(_ machine: CheckoutMachine) async {
            flag.store(true, ordering: .sequentiallyConsistent)
            await machine.resume()
        }
        var text: String { flag.load(ordering: .sequentiallyConsistent) ? "after resume" : "while paused" }
    }

    /// `pending --pay--> paid` (its action waits at `gate`), `paid --reopen--> loading`, whose
    /// task posts `.loaded` (to `showing`); `ping` and `poke` stay; `pending` times out after 30 s.
    static func schema(_ gate: Gate, _ log: Log, _ resumed: Resumed) throws -> Schema<CheckoutFlow> {
        let ping: @Sendable () -> Void = { log.record("ping \(resumed.text)") }
        let poke: @Sendable () -> Void = { log.record("poke \(resumed.text)") }
        let chatty = SuperState<CheckoutFlow> {
            when(.ping) | then() | ping
            when(.poke) | then() | poke
        }
        return try Schema<CheckoutFlow>(initial: .pending) {
            define(.pending, adopts: chatty) {
                when(.pay) | then(.paid) | { () async in
                    await gate.wait()
                    if Task.isCancelled { log.record("pay cancelled") }
                }
                after(.seconds(30)) | then(.cancelled) | { log.record("timeout \(resumed.text)") }
            }
            define(.paid, adopts: chatty) {
                when(.reopen) | then(.loading) | { () async in
                    await gate.wait()
                    log.record("reopened")
                }
            }
            define(.loading, adopts: chatty, running: StateTask { _ in
                log.record("task \(resumed.text)")
                return .loaded
            }) {
                when(.loaded) | then(.showing)
            }
            define(.showing, adopts: chatty)
            define(.cancelled, adopts: chatty)
        }
    }

    /// A machine of `schema` on a clock of its own: `pending`'s timeout never fires by itself,
    /// however slowly the test runs.
    static func machine(_ schema: Schema<CheckoutFlow>, startingIn state: Checkout? = nil) -> CheckoutMachine {
        CheckoutMachine(schema: schema, id: 1, startingIn: state, configuration: MachineConfiguration(clock: ManualClock()))
    }

    @Test func aPausedMachineRefusesNewEventsUntilItIsResumed() async throws {
        let log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(Gate(), log, resumed))
        try await machine.pause()
        try await machine.pause()
        let paused = (await machine.isPaused, await machine.isAcceptingEvents)
        #expect(paused == (true, false))
        await #expect(throws: MachineError<CheckoutFlow>.self) { try await machine.send(.ping) }
        do {
            try await machine.send(.ping)
        } catch {
            #expect(error.kind == .paused)
            #expect(error.description.contains("is paused"))
        }
        #expect(throws: MachineError<CheckoutFlow>.self) { try machine.tryPost(.ping) }
        do { try await machine.post(.ping) } catch { #expect(error.kind == .paused) }
        #expect(machine.queuedCount == 0, "a refused event is not kept")
        await resumed.resume(machine)
        let running = (await machine.isPaused, await machine.isAcceptingEvents)
        #expect(running == (false, true))
        try await machine.send(.ping)
        #expect(log.lines == ["ping after resume"])
    }

    @Test func eventsQueuedBeforeThePauseWaitForTheResumeAndKeepTheirOrder() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed))
        var records = await machine.records().makeAsyncIterator()
        let paying = Task { try await machine.send(.pay) }
        await gate.untilArrivals(1)
        try machine.tryPost(.ping)
        try machine.tryPost(.poke)
        // The pause comes while `pay`'s action runs: the transition completes, nothing after it.
        try await machine.pause()
        gate.open()
        #expect(try await paying.value.target == .paid)
        #expect(await records.next()?.event == .pay)
        #expect(machine.queuedCount == 2)
        await resumed.resume(machine)
        #expect(await records.next()?.event == .ping)
        #expect(await records.next()?.event == .poke)
        #expect(log.lines == ["ping after resume", "poke after resume"])
    }

    /// A sender that chooses to wait is processed once the machine resumes, in the order it
    /// came; one whose task is cancelled, or whose machine stops, is told so.
    @Test func sendersThatChooseToWaitAreProcessedOnResume() async throws {
        let log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(Gate(), log, resumed))
        try await machine.pause()
        let pinging = Task { try await machine.send(.ping, whenPaused: .wait) }
        await machine.untilQueued(1)
        let poking = Task { try await machine.post(.poke, whenPaused: .wait) }
        await machine.untilQueued(2)
        let abandoned = Task { try await machine.send(.ping, whenPaused: .wait) }
        await machine.untilQueued(3)
        abandoned.cancel()
        do {
            _ = try await abandoned.value
            Issue.record("a cancelled sender was processed")
        } catch {
            #expect((error as? MachineError<CheckoutFlow>)?.kind == .cancelled)
        }
        await #expect(throws: MachineError<CheckoutFlow>.self) { try await machine.send(.ping, whenPaused: .refuse) }
        await resumed.resume(machine)
        #expect(try await pinging.value.target == .pending)
        try await poking.value
        #expect(try await machine.send(.ping).target == .pending)
        #expect(log.lines == ["ping after resume", "poke after resume", "ping after resume"])

        try await machine.pause()
        let stranded = Task { try await machine.send(.ping, whenPaused: .wait) }
        await machine.untilQueued(1)
        await machine.stop()
        do {
            _ = try await stranded.value
            Issue.record("a sender waiting on a stopped machine was processed")
        } catch {
            #expect((error as? MachineError<CheckoutFlow>)?.kind == .stopped)
        }
    }

    /// A machine paused in `pending` whose 30-second timeout fell due meanwhile, and its records.
    static func pausedWithItsTimeoutDue(
        _ log: Log, _ resumed: Resumed
    ) async throws -> (CheckoutMachine, Subscription<TransitionRecord<CheckoutFlow>>.Iterator) {
        let clock = ManualClock()
        let machine = CheckoutMachine(schema: try Self.schema(Gate(), log, resumed), id: 1,
                                      configuration: MachineConfiguration(clock: clock))
        let records = await machine.records().makeAsyncIterator()
        await clock.waitUntilSleeping(count: 1)
        try await machine.pause()
        clock.advance(by: .seconds(60))
        await machine.untilHeldWhilePaused(1)
        return (machine, records)
    }

    @Test func aTimeoutThatFallsDueWhilePausedIsProcessedOnResume() async throws {
        let log = Log(), resumed = Resumed()
        var (machine, records) = try await Self.pausedWithItsTimeoutDue(log, resumed)
        #expect(await machine.state == .pending)
        await resumed.resume(machine)
        let record = try #require(await records.next())
        #expect(record.origin == .timeout(after: .seconds(30)) && record.target == .cancelled)
        #expect(log.lines == ["timeout after resume"])
        _ = machine
    }

    @Test func aTimeoutHeldWhilePausedGetsItsStoppedRecordOnShutdown() async throws {
        let log = Log(), resumed = Resumed()
        var (machine, records) = try await Self.pausedWithItsTimeoutDue(log, resumed)
        await machine.shutdown()
        let record = try #require(await records.next())
        #expect(record.origin == .timeout(after: .seconds(30)) && "\(record.outcome)" == "stopped")
        #expect(log.lines.isEmpty)
        _ = machine
    }

    @Test func aStateEnteredAsThePauseCameStartsItsTaskOnlyAfterTheResume() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed), startingIn: .paid)
        var states = await machine.stateChanges().makeAsyncIterator()
        #expect(await states.next() == .paid)
        let reopening = Task { try await machine.send(.reopen) }
        await gate.untilArrivals(1)
        try await machine.pause()
        gate.open()
        #expect(try await reopening.value.target == .loading)
        #expect(await states.next() == .loading)
        await resumed.resume(machine)
        #expect(await states.next() == .showing)
        #expect(log.lines == ["reopened", "task after resume"])
    }

    @Test func aResumeBeforeTheTransitionInProgressCompletesLeavesItsTasksToIt() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed), startingIn: .paid)
        let reopening = Task { try await machine.send(.reopen) }
        await gate.untilArrivals(1)
        try await machine.pause()
        await resumed.resume(machine)
        gate.open()
        #expect(try await reopening.value.target == .loading)
        var states = await machine.stateChanges().makeAsyncIterator()
        while let state = await states.next(), state != .showing {}
        #expect(log.lines == ["reopened", "task after resume"], "the task starts once the transition completes")
    }

    @Test func stoppingAPausedMachineGivesWhatItQueuedItsStoppedRecords() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed))
        var records = await machine.records().makeAsyncIterator()
        try machine.tryPost(.pay)
        try machine.tryPost(.ping)
        await gate.untilArrivals(1)
        try await machine.pause()
        gate.open()
        #expect(await records.next()?.event == .pay)
        await machine.untilQueued(1)
        await machine.shutdown()
        let stopped = try #require(await records.next())
        #expect(stopped.event == .ping && "\(stopped.outcome)" == "stopped")
        #expect(await records.next() == nil)
    }

    @Test func shuttingDownAPausedMachineStopsWhatItHasQueued() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed))
        var records = await machine.records().makeAsyncIterator()
        let paying = Task { try await machine.send(.pay) }
        await gate.untilArrivals(1)
        let pinging = Task { try await machine.send(.ping) }
        await machine.untilQueued(1)
        try await machine.pause()
        let ending = Task { await machine.shutdown() }
        await machine.untilEndAwaited(1)
        gate.open()
        await ending.value
        #expect(try await paying.value.target == .paid)
        await #expect(throws: MachineError<CheckoutFlow>.self) { try await pinging.value }
        #expect(await records.next()?.event == .pay)
        let stopped = try #require(await records.next())
        #expect(stopped.event == .ping && "\(stopped.outcome)" == "stopped")
        #expect(await machine.isStopped)
        #expect(log.lines.isEmpty, "the shutdown let pay's action complete uncancelled")
        await #expect(throws: MachineError<CheckoutFlow>.self) { try await machine.pause() }
    }

    @Test func eventsTakenInOneBatchWithTheEventInProgressGoBackToWait() async throws {
        let gate = Gate(), log = Log(), resumed = Resumed()
        let machine = Self.machine(try Self.schema(gate, log, resumed))
        var records = await machine.records().makeAsyncIterator()
        // Posted together, before the drain starts: it takes the three in one batch.
        try machine.tryPost(.pay)
        try machine.tryPost(.ping)
        try machine.tryPost(.poke)
        await gate.untilArrivals(1)
        try await machine.pause()
        gate.open()
        #expect(await records.next()?.event == .pay)
        await machine.untilQueued(2)
        await resumed.resume(machine)
        #expect(await records.next()?.event == .ping)
        #expect(await records.next()?.event == .poke)
        #expect(log.lines == ["ping after resume", "poke after resume"])
    }
}
