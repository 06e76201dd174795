import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// An operator's retry: a failed event processed again, from the entry before it, under its
/// own number, with the code that runs now.
@Suite(.timeLimit(.minutes(3))) struct DurableRetryByOperatorTests {
    /// Whether the door's provider is down, and the idempotency keys its opening ran under.
    final class Provider: Sendable {
        let isDown = Atomic<Bool>(true)
        let keys = Locked<[String]>([])
    }

    /// A door whose opening fails while `provider` is down.
    static func schema(_ provider: Provider) throws -> Schema<Door> {
        try Schema<Door>(initial: .closed) {
            define(.closed) {
                when(.open) | then(.open) | { (context: TransitionContext<Door>) in
                    provider.keys.withLock { $0.append(context.idempotencyKey) }
                    if provider.isDown.load(ordering: .relaxed) { throw Boom() }
                    context.data.openings += 1
                }
            }
            define(.open) { when(.close) | then(.closed) }
        }
    }

    @Test func aFailedEventRunsAgainUnderItsNumberOnceTheProviderIsBack() async throws {
        let provider = Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .open) }
        #expect(try await store.machine("a")?.summary.status == .failed)

        provider.isDown.store(false, ordering: .relaxed)
        var reports = doors.reports().makeAsyncIterator()
        try await doors.retry("a", reason: "the provider is back")
        let record = await firstRecordOf(.open, in: &reports)
        #expect(record?.outcome.isTransitioned == true && record?.sequenceNumber == 1)
        #expect(provider.keys.withLock { $0 } == ["a#1", "a#1"])
        #expect(await doors.machine(id: "a")?.data.openings == 1)
        let history = try await store.history(of: "a")
        #expect(history.map(\.kind) == [.created, .completed])
        #expect(history[1].outcome == "transitioned" && history[1].operation?.verb == "retry")
        #expect(history[1].operation?.reason == "the provider is back")
        #expect(try await store.machine("a")?.summary.status == .running)
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        // The next event goes on from there.
        #expect(try await doors.send(to: "a", .close).sequenceNumber == 2)
        await doors.shutdown()
    }

    /// An operator's retry during a store outage fails with `.notDurable` and changes nothing:
    /// the failed entry stays, and the retry goes through once the store is back.
    @Test func aRetryDuringAStoreOutageChangesNothing() async throws {
        let provider = Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .open) }
        let failed = try await store.entries(of: "a")
        provider.isDown.store(false, ordering: .relaxed)
        store.beginOutage()
        do {
            try await doors.retry("a", reason: "during the outage")
            Issue.record("a retry the store could not record succeeded")
        } catch {
            #expect(error.kind == .notDurable)
        }
        store.endOutage()
        #expect(try await store.entries(of: "a") == failed)
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        var reports = doors.reports().makeAsyncIterator()
        try await doors.retry("a", reason: "the store is back")
        #expect(await firstRecordOf(.open, in: &reports)?.sequenceNumber == 1)
        #expect(try await store.history(of: "a").last?.operation?.reason == "the store is back")
        await doors.shutdown()
    }

    @Test func aFailedEntryDoesNotCompactAwayTheEntryARetryStartsFrom() async throws {
        let provider = Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store, compactionInterval: 1))
        try await doors.activate(id: "a", data: Door.Data())
        provider.isDown.store(false, ordering: .relaxed)
        try await doors.send(to: "a", .open)
        try await doors.send(to: "a", .close)
        provider.isDown.store(true, ordering: .relaxed)
        _ = try? await doors.send(to: "a", .open)
        #expect(try await store.entries(of: "a").map(\.sequenceNumber) == [2, 3])
        provider.isDown.store(false, ordering: .relaxed)
        var reports = doors.reports().makeAsyncIterator()
        try await doors.retry("a")
        #expect(await firstRecordOf(.open, in: &reports)?.sequenceNumber == 3)
        #expect(await doors.machine(id: "a")?.data.openings == 2)
        await doors.shutdown()
    }

    @Test func aMachineWhoseNewestEntryDidNotFailIsNotRetried() async throws {
        let provider = Provider()
        provider.isDown.store(false, ordering: .relaxed)
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        do {
            try await doors.retry("a")
            Issue.record("a machine that did not fail was retried")
        } catch {
            #expect(error.kind == .notDurable)
            #expect("\(error.underlying!)".contains("did not fail: there is nothing to retry"))
        }
        do {
            try await doors.retry("nobody")
            Issue.record("an unknown machine was retried")
        } catch {
            #expect(error.kind == .unknownMachine)
        }
        // Refused, the machine comes back on its next event, as after a passivation.
        #expect(try await doors.send(to: "a", .close).sequenceNumber == 2)
        await doors.shutdown()
    }

    /// A pause and a resume from the store after the failure keep its failed status, but the
    /// failed entry is no longer the newest: a retry would undo them, so it is refused, by the
    /// store and by a supervisor, and nothing changes.
    @Test func aFailedMachinePausedAndResumedSinceIsNotRetried() async throws {
        let provider = Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        _ = try? await doors.send(to: "a", .open)
        await doors.shutdown()
        try await store.pause(machine: "a", reason: "look")
        try await store.resume(machine: "a", reason: "looked")
        #expect(try await store.machine("a")?.summary.status == .failed)
        let before = try await store.entries(of: "a")
        let refusal = await #expect(throws: StoreError.self) { try await store.retry(machine: "a", reason: "again") }
        #expect(refusal?.message.contains("is an operator's resume") == true)
        let restarted = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        do {
            try await restarted.retry("a")
            Issue.record("a machine paused and resumed since its failure was retried")
        } catch {
            let why = error.underlying.map { "\($0)" } ?? ""
            #expect(why.contains("is an operator's resume"))
        }
        #expect(try await store.entries(of: "a") == before)
        await restarted.shutdown()
    }

    @Test func aRetryFromTheStoreRunsWhenAProcessRestoresTheMachine() async throws {
        let provider = Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        _ = try? await doors.send(to: "a", .open)
        await doors.shutdown()

        try await store.retry(machine: "a", reason: "deployed the fix")
        #expect(try await store.history(of: "a").last?.kind == .intent)
        provider.isDown.store(false, ordering: .relaxed)
        let restarted = try Supervisor(schema: try Self.schema(provider), durability: doorDurability(store))
        var reports = restarted.reports().makeAsyncIterator()
        #expect(try await restarted.restoreAll().restored == 1)
        let record = await firstRecordOf(.open, in: &reports)
        #expect(record?.target == .open && record?.sequenceNumber == 1)
        #expect(try await store.history(of: "a").last?.operation?.reason == "deployed the fix")
        await restarted.shutdown()
    }

    /// A crash (or a stop after a restart ran a failed event again) left the event's intent: the
    /// operator's retry writes the intent again as its own, and the restore records it.
    @Test func aRetryOfAnInterruptedEventIsRecordedByTheRestoreThatRunsIt() async throws {
        let crash = try await MidActionCrash.during { doors in try await doors.send(to: "a", .open) }
        await #expect(throws: StoreError.self) { try await crash.crashed.pause(machine: "a", reason: "too soon") }
        try await crash.crashed.retry(machine: "a", reason: "went again")
        let retried = try await crash.crashed.history(of: "a")
        #expect(retried.map(\.kind) == [.created, .intent])
        #expect(retried[1].operation?.verb == "retry" && retried[1].operation?.reason == "went again")
        let history = try await crash.restoreOpening()
        #expect(history[1].operation?.reason == "went again" && history[1].data == #"{"openings":1}"#)
        await crash.finish()
    }
}
