import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Synchronization
import Testing
import PostgresTestSupport
import TestSupport

/// A charge tried again while its service fails, on PostgreSQL.
enum RetriedCharge: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, charged }
    enum Event: String, Codable, Hashable, Sendable { case submit }
    typealias ID = String
}

@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresRetryTests {
    struct Unavailable: Error {}

    /// The database restarts while an action waits to retry: the wait's write fails, the
    /// supervisor restores the machine once the database answers, and the restored machine takes
    /// the retry up at the last attempt written, under the same key.
    @Test func aDatabaseRestartDuringARetryWaitKeepsTheKey() async throws {
        try await withPostgres(restartDuringRetry)
    }

    private func restartDuringRetry(on server: TemporaryPostgres) async throws {
        let calls = Locked<[String]>([])
        let schema = try Schema<RetriedCharge>(initial: .placed, final: [.charged]) {
            define(.placed) {
                when(.submit) | then(.charged) | retry(.fixed(.seconds(1), attempts: 10)) { context in
                    let count = calls.withLock { calls in
                        calls.append(context.idempotencyKey)
                        return calls.count
                    }
                    if count <= 2 { throw Unavailable() }
                }
            }
        }
        let clock = ManualClock()
        let watch = StoreWatch()
        var lines = watch.lines.makeAsyncIterator()
        let store = try PostgresStore(url: server.url, leaseDuration: .seconds(600))
        let orders = try Supervisor(schema: schema, durability: Durability(store: store, wallClock: clock),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock, instrument: watch)))
        try await orders.activate(id: "o-1")
        try orders.tryPost(to: "o-1", .submit)
        await clock.waitUntilSleeping(count: 1)   // attempt 1 failed; attempt 2's wait is written
        try await serverWork { try server.kill() }
        clock.advance(by: .seconds(1))            // attempt 2 fails; its wait cannot be written
        #expect(await lines.skip(to: "unavailable o-1"))
        try await serverWork { try server.restart() }
        // The supervisor asks the store again while the time passes, until it restores the machine.
        var restored = false
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        while !restored, let line = await lines.next() {
            if line == "restored o-1" { restored = true }
            if line == "unavailable o-1" {
                await clock.waitUntilSleeping(count: 1)
                clock.advance(by: .seconds(1))
            }
        }
        #expect(restored)
        // The restored machine takes attempt 2 up at once: its time came while the database was down.
        let machine = try #require(orders.machine(id: "o-1"))
        for await state in await machine.stateChanges() where state == .charged { break }
        #expect(await machine.state == .charged)
        #expect(Set(calls.withLock { $0 }) == ["o-1#1"])
        await orders.shutdown()
        store.close()
    }
}
