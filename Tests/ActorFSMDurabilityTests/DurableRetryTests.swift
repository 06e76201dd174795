import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// A durable charge tried again while its service fails.
enum StoredCharging: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, charged }
    enum Event: String, Codable, Hashable, Sendable { case submit }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var charged = 0 }
}

@Suite(.timeLimit(.minutes(3))) struct DurableRetryTests {
    struct Unavailable: Error {}

    /// The schema whose `submit` charges through a service that fails its first `failures`
    /// calls, noting each call's attempt and key in `calls`.
    static func schema(failures: Int, calls: Locked<[(Int, String)]>) throws -> Schema<StoredCharging> {
        try Schema<StoredCharging>(initial: .placed, final: [.charged]) {
            define(.placed) {
                when(.submit) | then(.charged) | retry(.exponential(initial: .seconds(1), maximum: .seconds(10), attempts: 5)) { context in
                    let count = calls.withLock { calls in
                        calls.append((context.attempt, context.idempotencyKey))
                        return calls.count
                    }
                    if count <= failures { throw Unavailable() }
                    context.data.charged += 1
                }
            }
        }
    }

    func machine(_ schema: Schema<StoredCharging>, _ store: any MachineStore, clock: ManualClock) async throws -> Machine<StoredCharging> {
        try await Machine(schema: schema, id: "o-1", data: StoredCharging.Data(),
                          durability: Durability(store: store, wallClock: clock),
                          configuration: MachineConfiguration(clock: clock))
    }

    @Test func aCrashDuringARetryWaitKeepsTheAttemptAndTheRestOfTheWait() async throws {
        let calls = Locked<[(Int, String)]>([])
        let schema = try Self.schema(failures: 2, calls: calls)
        let store = InMemoryStore()
        let clock = ManualClock()
        let first = try await machine(schema, store, clock: clock)
        try first.tryPost(.submit)
        // Attempt 1 failed; attempt 2 waits 1 s, and its wait is recorded before it starts.
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .milliseconds(400))
        let restarted = store.crash()
        await first.stop()

        let clockAfter = ManualClock(now: clock.now)
        let again = try await machine(schema, restarted, clock: clockAfter)
        var records = await again.records().makeAsyncIterator()
        // The restored machine takes up the event, waits the 600 ms left, then makes attempt 2,
        // which fails; attempt 3 comes 2 s later.
        await clockAfter.waitUntilSleeping(count: 1)
        clockAfter.advance(by: .milliseconds(600))
        await clockAfter.waitUntilSleeping(count: 1)
        clockAfter.advance(by: .seconds(2))
        let record = try #require(await records.next())
        #expect(record.outcome.isTransitioned && record.target == .charged && record.sequenceNumber == 1)
        #expect(record.attempts == 3, "the attempt before the crash counts too")
        let seen = calls.withLock { $0 }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(Set(seen.map(\.1)) == ["o-1#1"])
        #expect(await again.data.charged == 1)
        await again.shutdown()
    }

    @Test func aStopDuringARetryWaitResumesOnRestore() async throws {
        let calls = Locked<[(Int, String)]>([])
        let schema = try Self.schema(failures: 1, calls: calls)
        let store = InMemoryStore()
        let clock = ManualClock()
        let first = try await machine(schema, store, clock: clock)
        try first.tryPost(.submit)
        await clock.waitUntilSleeping(count: 1)
        await first.stop()
        await first.awaitEnd()
        // The stop interrupted the event: restored, the machine makes attempt 2 after the wait.
        let again = try await machine(schema, store, clock: clock)
        var records = await again.records().makeAsyncIterator()
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        let record = try #require(await records.next())
        #expect(record.target == .charged && record.attempts == 2)
        #expect(calls.withLock { $0.map(\.0) } == [1, 2])
        await again.shutdown()
    }

    @Test func aStoredRetryBelongsToTheActionThatWaited() async throws {
        // Two retried actions: the first succeeds at once, the second fails twice.
        let calls = Locked<[(String, Int)]>([])
        let policy = RetryPolicy.fixed(.seconds(1), attempts: 5)
        let schema = try Schema<StoredCharging>(initial: .placed, final: [.charged]) {
            define(.placed) {
                when(.submit) | then(.charged)
                    | retry(policy) { context in calls.withLock { $0.append(("reserve", context.attempt)) } }
                    & retry(policy) { context in
                        let failed = calls.withLock { calls in
                            calls.append(("charge", context.attempt))
                            return calls.filter { $0.0 == "charge" }.count <= 2
                        }
                        if failed { throw Unavailable() }
                    }
            }
        }
        let store = InMemoryStore()
        let clock = ManualClock()
        let first = try await machine(schema, store, clock: clock)
        try first.tryPost(.submit)
        await clock.waitUntilSleeping(count: 1)   // the charge waits before its attempt 2
        let restarted = store.crash()
        await first.stop()

        let again = try await machine(schema, restarted, clock: clock)
        var records = await again.records().makeAsyncIterator()
        // Replayed, the reservation starts at its first attempt; the charge goes on at attempt 2.
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        let record = try #require(await records.next())
        #expect(record.target == .charged && record.attempts == 3)
        let seen = calls.withLock { $0 }
        #expect(seen.map(\.0) == ["reserve", "charge", "reserve", "charge", "charge"])
        #expect(seen.map(\.1) == [1, 1, 1, 2, 3])
        await again.shutdown()
    }

    @Test func aMachineWaitingToRetryIsNotPassivatedAsIdle() async throws {
        let calls = Locked<[(Int, String)]>([])
        let schema = try Self.schema(failures: 1, calls: calls)
        let clock = ManualClock()
        let orders = try Supervisor(schema: schema, durability: Durability(store: InMemoryStore(), wallClock: clock),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        try await orders.activate(id: "o-1", data: StoredCharging.Data())
        try await orders.activate(id: "o-2", data: StoredCharging.Data())
        try orders.tryPost(to: "o-1", .submit)
        await clock.waitUntilSleeping(count: 1)
        // Only the idle one goes; the one waiting to retry would hold the sweep for its wait.
        #expect(await orders.passivateIdle(longerThan: .zero) == 1)
        #expect(orders.machine(id: "o-1") != nil && orders.machine(id: "o-2") == nil)
        clock.advance(by: .seconds(1))
        await orders.shutdown()
        #expect(calls.withLock { $0.map(\.0) } == [1, 2])
    }

    @Test func aStoreOutageDuringARetryLosesNothingAndKeepsTheKey() async throws {
        let calls = Locked<[(Int, String)]>([])
        let schema = try Self.schema(failures: 2, calls: calls)
        let store = InMemoryStore()
        let clock = ManualClock()
        let watch = StoreWatch()
        var lines = watch.lines.makeAsyncIterator()
        let orders = try Supervisor(schema: schema, durability: Durability(store: store, wallClock: clock),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock, instrument: watch)))
        let reports = orders.reports()
        try await orders.activate(id: "o-1", data: StoredCharging.Data())
        try orders.tryPost(to: "o-1", .submit)
        await clock.waitUntilSleeping(count: 1)   // attempt 1 failed; attempt 2 waits 1 s
        store.beginOutage()
        clock.advance(by: .seconds(1))            // attempt 2 fails, and its wait cannot be written
        #expect(await lines.skip(to: "unavailable o-1"))
        store.endOutage()
        // The action waits 2 s for attempt 3; the supervisor waits 100 ms to ask the store again.
        // Then it stops the machine that ran ahead of its store (its wait is cancelled) and
        // restores it: attempt 2 was the last wait written, and its time has come.
        await clock.waitUntilSleeping(count: 2)
        clock.advance(by: .seconds(1))
        #expect(await lines.skip(to: "restored o-1"))
        for await report in reports {
            if case .transition(let record) = report, record.target == .charged { break }
        }
        #expect(await orders.machine(id: "o-1")?.state == .charged)
        #expect(await orders.machine(id: "o-1")?.data.charged == 1)
        let seen = calls.withLock { $0 }
        #expect(Set(seen.map(\.1)) == ["o-1#1"], "every attempt, before and after the outage, kept the key")
        let history = try await Durability<StoredCharging>(store: store).history(of: "o-1", schema: schema)
        #expect(history.filter { $0.kind == .completed("transitioned") && $0.event == .submit }.count == 1,
                "the store records the charge once")
        await orders.shutdown()
    }
}
