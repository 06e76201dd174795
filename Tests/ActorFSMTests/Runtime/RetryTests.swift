import ActorFSM
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// A charge tried again while its service fails.
enum Charging: MachineDefinition {
    enum State: Hashable, Sendable { case placed, charged, failed }
    enum Event: Hashable, Sendable { case submit, cancel }
    typealias ID = Int
    struct Data: Sendable, Equatable { var calls = 0; var charged = 0 }
}

/// A service that fails its first `failures` calls, and notes what each call was told.
final class FlakyService: Sendable {
    struct Call: Equatable { let attempt: Int; let key: String; let callsSeen: Int }
    struct Unavailable: Error {}
    struct Declined: Error {}

    let failures: Int
    let calls = Locked<[Call]>([])

    init(failures: Int) { self.failures = failures }

    func charge(_ context: TransitionContext<Charging>) async throws {
        // A change an attempt makes before it throws is rolled back before the next attempt.
        context.data.calls += 1
        let count = calls.withLock { calls in
            calls.append(Call(attempt: context.attempt, key: context.idempotencyKey, callsSeen: context.data.calls))
            return calls.count
        }
        if count <= failures { throw Unavailable() }
        context.data.charged += 1
    }
}

@Suite(.timeLimit(.minutes(3))) struct RetryTests {
    static let policy = RetryPolicy.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(5), attempts: 4)

    func schema(_ service: FlakyService, policy: RetryPolicy = Self.policy,
                unless excluded: (@Sendable (any Error) -> Bool)? = nil) throws -> Schema<Charging> {
        try Schema<Charging>(initial: .placed, final: [.charged, .failed]) {
            define(.placed) {
                when(.submit) | then(.charged) | retry(policy, unless: excluded) { context in try await service.charge(context) }
                when(.cancel) | then(.failed)
            }
        }
    }

    /// Sends `submit` and lets `clock` pass each delay in turn as the action waits for it.
    func submit(
        to machine: Machine<Charging>, clock: ManualClock, delays: [Duration]
    ) async throws -> TransitionRecord<Charging> {
        let sending = Task { try await machine.send(.submit) }
        for delay in delays {
            await clock.waitUntilSleeping(count: 1)
            clock.advance(by: delay)
        }
        return try await sending.value
    }

    @Test func anActionIsTriedAgainAfterGrowingDelaysWithTheSameKey() async throws {
        let service = FlakyService(failures: 3)
        let clock = ManualClock()
        let machine = Machine(schema: try schema(service), id: 7, data: Charging.Data(),
                              configuration: MachineConfiguration(clock: clock))
        // Delays of 1, 3 and then 5 s (9 s capped at the maximum).
        let record = try await submit(to: machine, clock: clock, delays: [.seconds(1), .seconds(3), .seconds(5)])
        #expect(record.outcome.isTransitioned && record.attempts == 4 && record.target == .charged)
        let calls = service.calls.withLock { $0 }
        #expect(calls.map(\.attempt) == [1, 2, 3, 4])
        #expect(Set(calls.map(\.key)) == ["7#1"])
        #expect(calls.map(\.callsSeen) == [1, 1, 1, 1], "each attempt starts from the data as the action found it")
        #expect(await machine.data == Charging.Data(calls: 1, charged: 1))
        #expect(clock.now.offset == .seconds(9))
    }

    @Test func anExhaustedPolicyFailsWithTheLastError() async throws {
        let service = FlakyService(failures: 10)
        let clock = ManualClock()
        let machine = Machine(schema: try schema(service), id: 1, data: Charging.Data(),
                              configuration: MachineConfiguration(clock: clock))
        let error = await #expect(throws: MachineError<Charging>.self) {
            _ = try await submit(to: machine, clock: clock, delays: [.seconds(1), .seconds(3), .seconds(5)])
        }
        #expect(error?.kind == .actionFailed && error?.underlying is FlakyService.Unavailable)
        #expect(error?.record?.attempts == 4)
        #expect(service.calls.withLock { $0.count } == 4)
        #expect(await machine.state == .placed && machine.schema.initialState == .placed)
        #expect(await machine.data == Charging.Data(), "a failed transition leaves the data as it was")
    }

    @Test func anExcludedErrorIsNotRetried() async throws {
        let service = FlakyService(failures: 1)
        let clock = ManualClock()
        let machine = Machine(schema: try schema(service, unless: { $0 is FlakyService.Unavailable }), id: 1,
                              data: Charging.Data(), configuration: MachineConfiguration(clock: clock))
        let error = await #expect(throws: MachineError<Charging>.self) { try await machine.send(.submit) }
        #expect(error?.record?.attempts == 1 && clock.sleepCallCount == 0)
    }

    @Test func aStopDuringTheWaitInterruptsTheTransition() async throws {
        let service = FlakyService(failures: 10)
        let clock = ManualClock()
        let machine = Machine(schema: try schema(service), id: 1, data: Charging.Data(),
                              configuration: MachineConfiguration(clock: clock))
        let records = await machine.records()
        try machine.tryPost(.submit)
        await clock.waitUntilSleeping(count: 1)
        await machine.stop()
        var outcomes: [String] = []
        for await record in records { outcomes.append("\(record.outcome)") }
        #expect(outcomes == ["stopped"], "the transition is interrupted, not failed")
        #expect(service.calls.withLock { $0.count } == 1)
    }

    @Test func aBlockRetriesEveryActionOfItsStatements() async throws {
        let service = FlakyService(failures: 1)
        let clock = ManualClock()
        let schema = try Schema<Charging>(initial: .placed, final: [.charged, .failed]) {
            define(.placed) {
                retry(.fixed(.seconds(2), attempts: 2)) {
                    when(.submit) | then(.charged) | { context in try await service.charge(context) }
                }
            }
        }
        let machine = Machine(schema: schema, id: 3, data: Charging.Data(), configuration: MachineConfiguration(clock: clock))
        let record = try await submit(to: machine, clock: clock, delays: [.seconds(2)])
        #expect(record.attempts == 2 && record.target == .charged)
    }

    @Test func aPolicyComputesItsDelays() {
        struct Other: Error {}
        let policy = RetryPolicy.exponential(initial: .milliseconds(100), maximum: .seconds(1), attempts: 6)
            .unless { $0 is FlakyService.Declined }
        let delays = (2...7).map { policy.delay(before: $0, after: Other()) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), nil])
        #expect(policy.delay(before: 2, after: FlakyService.Declined()) == nil)
        #expect("\(RetryPolicy.fixed(.seconds(1), attempts: 3))" == "up to 3 attempts, 1.0 seconds apart")
    }
}
