import ActorFSM
import Testing
import TestSupport

/// `run()` on machines and supervisors: it returns at a graceful end, throws what ended a
/// machine badly, and turns the cancellation of its task into a hard stop.
@Suite(.timeLimit(.minutes(3))) struct RunTests {
    /// Waits until the calling task is cancelled: an action that only a hard stop ends.
    static func untilCancelled() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        for await _ in stream {}   // a stream's iteration ends when its task is cancelled
        continuation.finish()
    }

    /// A turnstile whose coin action waits until cancelled (after opening `started`), and whose
    /// reset action throws.
    static func schema(started: Gate) throws -> Schema<NumberedTurnstile> {
        try Schema<NumberedTurnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (_: TransitionContext<NumberedTurnstile>) async in
                    started.open()
                    await untilCancelled()
                }
                when(.reset) | then(.alarming) | { throw Boom() }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
    }

    @Test func aMachinesRunReturnsOnceItFinishes() async throws {
        let machine = Machine(schema: try Self.schema(started: Gate()), id: 0)
        let runner = Task { try await machine.run() }
        try await machine.send(.pass)
        await machine.shutdown()
        try await runner.value
        #expect(await machine.isStopped)
    }

    @Test func cancellingAMachinesRunStopsItAndThrowsCancellation() async throws {
        let started = Gate()
        let machine = Machine(schema: try Self.schema(started: started), id: 0)
        let records = await machine.records()
        let runner = Task { try await machine.run() }
        let sender = Task { try await machine.send(.coin) }
        await started.wait()
        try machine.tryPost(.pass)
        runner.cancel()
        await #expect(throws: CancellationError.self) { try await runner.value }
        #expect(await machine.isStopped)
        #expect(try await sender.value.target == .unlocked, "the event in progress completes")
        let seen = try await first(2, of: records)
        #expect(seen.map(\.outcome.description) == ["transitioned", "stopped"])
    }

    @Test func aMachinesRunThrowsTheErrorThatStoppedIt() async throws {
        let machine = Machine(schema: try Self.schema(started: Gate()), id: 0,
                              configuration: .init(failurePolicy: .stop))
        let runner = Task { try await machine.run() }
        await #expect(throws: TurnstileError.self) { try await machine.send(.reset) }
        await #expect(throws: Boom.self) { try await runner.value }
    }

    @Test func aSupervisorsRunReturnsAfterAGracefulShutdown() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(schema: try Self.schema(started: Gate()))
        try supervisor.spawn(id: 1)
        let runner = Task { try await supervisor.run() }
        try await supervisor.send(to: 1, .pass)
        await supervisor.shutdown()
        try await runner.value
        #expect(supervisor.count == 0)
    }

    @Test func cancellingASupervisorsRunStopsEveryMachineNow() async throws {
        let started = Gate()
        let supervisor = Supervisor<NumberedTurnstile>(schema: try Self.schema(started: started))
        let reports = supervisor.reports()
        try supervisor.spawn(id: 1)
        try supervisor.spawn(id: 2)
        let runner = Task { try await supervisor.run() }
        try supervisor.tryPost(to: 1, .coin)
        await started.wait()
        try supervisor.tryPost(to: 1, .pass)
        runner.cancel()
        await #expect(throws: CancellationError.self) { try await runner.value }
        #expect(supervisor.isShutDown)
        #expect(supervisor.count == 0)
        var outcomes: [String] = []
        var ended: Set<Int> = []
        for await report in reports {
            switch report {
            case .transition(let record): outcomes.append(record.outcome.description)
            case .terminated(let id, _): ended.insert(id)
            case .restarted, .escalated, .passivated: Issue.record("unexpected \(report)")
            }
        }
        #expect(outcomes == ["transitioned", "stopped"], "the queued event is stopped, not processed")
        #expect(ended == [1, 2])
    }

    /// The graceful shutdown cannot end while the action ignores it; the stop cancels the action.
    /// Whichever of the two starts first, the other joins it, and both return.
    @Test func aStopEndsAGracefulShutdownThatWaitsForAnAction() async throws {
        let started = Gate()
        let supervisor = Supervisor<NumberedTurnstile>(schema: try Self.schema(started: started))
        try supervisor.spawn(id: 1)
        try supervisor.tryPost(to: 1, .coin)
        await started.wait()
        let shutdown = Task { await supervisor.shutdown() }
        await supervisor.stop()
        await shutdown.value
        #expect(supervisor.count == 0)
    }

    @Test func aStopAwaitedFromAnActionOfTheSupervisorsOwnEndsEverything() async throws {
        let supervisor = Later<Supervisor<NumberedTurnstile>>()
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (_: TransitionContext<NumberedTurnstile>) async in
                    await supervisor.get?.stop()
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        supervisor.set(Supervisor<NumberedTurnstile>(schema: schema))
        let orders = try #require(supervisor.get)
        try orders.spawn(id: 1)
        try orders.spawn(id: 2)
        let record = try await orders.send(to: 1, .coin)
        #expect(record.target == .unlocked, "the action's own stop did not wait for the action")
        #expect(orders.isShutDown && orders.count == 0)
    }

    @Test func aSupervisorsRunThrowsTheEscalation() async throws {
        let supervisor = Supervisor<NumberedTurnstile>(
            schema: try Self.schema(started: Gate()), configuration: .init(restartStrategy: .escalate))
        try supervisor.spawn(id: 7)
        let runner = Task { try await supervisor.run() }
        await #expect(throws: TurnstileError.self) { try await supervisor.send(to: 7, .reset) }
        do {
            try await runner.value
            Issue.record("run returned after an escalation")
        } catch let escalation as Supervisor<NumberedTurnstile>.Escalation {
            #expect(escalation.id == 7)
            #expect(escalation.error is Boom)
        }
    }
}
