import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// An operator's cancel of a durable machine: its cancelling event if its state handles it,
/// otherwise an end for good that no restore undoes.
@Suite(.timeLimit(.minutes(3))) struct DurableCancelTests {
    /// A door whose `kick` is its cancelling event where it is handled: open doors close on it.
    static func kickableSchema() throws -> Schema<Door> {
        try Schema<Door>(initial: .closed, final: [.jammed]) {
            define(.closed) {
                when(.open) | then(.open) | { context in context.data.openings += 1 }
                when(.lock) | then(.locked)
            }
            define(.open) {
                when(.close) | then(.closed)
                when(.kick) | then(.jammed)
            }
            define(.locked) { after(.seconds(60)) | then(.closed) }
        }
    }

    static func durability(_ store: InMemoryStore, clock: ManualClock = ManualClock()) -> Durability<Door> {
        Durability(store: store, wallClock: clock, cancelling: .kick)
    }

    @Test func aStateThatHandlesTheCancellingEventIsSentIt() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        let outcome = try await doors.cancel("a", reason: "customer asked")
        guard case .sent(let record) = outcome else {
            Issue.record("the cancelling event was not sent: \(outcome)")
            return
        }
        #expect(record.event == .kick && record.target == .jammed && record.sequenceNumber == 3)
        let history = try await store.history(of: "a")
        #expect(history.map(\.kind) == [.created, .completed, .operator, .completed])
        #expect(history[2].operation?.verb == "cancel" && history[2].operation?.reason == "customer asked")
        #expect(try await store.machine("a")?.summary.status == .final)
        await doors.shutdown()
    }

    @Test func aStateWithoutTheCancellingEventEndsForGoodAndNoRestoreBringsItBack() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store, clock: clock))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.activate(id: "b", data: Door.Data())
        try await doors.send(to: "a", .lock)
        let outcome = try await doors.cancel("a", reason: "fraud")
        guard case .ended = outcome else {
            Issue.record("a locked door was sent its cancelling event: \(outcome)")
            return
        }
        let stored = try #require(try await store.machine("a"))
        #expect(stored.summary.status == .cancelled && stored.summary.waitingUntil == nil)
        #expect(try await store.history(of: "a").last?.operation?.verb == "cancel")
        do {
            try await doors.send(to: "a", .open)
            Issue.record("a cancelled machine took an event")
        } catch {
            #expect(error.kind == .stopped)
            #expect((error.underlying as? DurabilityError)?.kind == .cancelled)
        }
        await doors.shutdown()

        // After a crash, neither restoreAll nor a send brings it back; its timeout never fires.
        let crashed = store.crash()
        clock.advance(by: .seconds(120))
        let restarted = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(crashed, clock: clock))
        #expect(try await restarted.restoreAll().restored == 1)
        #expect(restarted.machine(id: "a") == nil)
        await #expect(throws: MachineError<Door>.self) { try await restarted.send(to: "a", .open) }
        #expect(try await crashed.machine("a")?.summary.status == .cancelled)
        #expect(await SummaryAudit.disagreements(in: crashed).isEmpty)
        // A purge takes it as it takes a final machine.
        #expect(try await crashed.purge(MachineQuery()).purged == 1)
        #expect(try await crashed.machine("a") == nil)
        #expect(try await crashed.machine("b") != nil)
        await restarted.shutdown()
    }

    @Test func aPausedMachineCanBeCancelled() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        try await doors.pause("a", reason: "look first")
        guard case .sent(let record) = try await doors.cancel("a", reason: "looked") else {
            Issue.record("the paused machine was not sent its cancelling event")
            return
        }
        #expect(record.target == .jammed)
        let history = try await store.history(of: "a")
        #expect(history.compactMap(\.operation?.verb) == ["pause", "cancel"])
        #expect(history.map(\.isPaused) == [false, false, true, false, false])
        await doors.shutdown()
    }

    /// A final machine is neither cancelled nor paused (the store's listing may still show it
    /// running when the operator asks: its summary comes a moment later); a signal finds its
    /// state handles nothing.
    @Test func cancellingOrPausingAFinalMachineIsRefused() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)
        try await doors.send(to: "a", .kick)
        do {
            try await doors.cancel("a")
            Issue.record("a final machine was cancelled")
        } catch {
            #expect(error.kind == .stopped)
        }
        do {
            try await doors.pause("a", reason: "too late")
            Issue.record("a final machine was paused")
        } catch {
            #expect(error.kind == .stopped)
        }
        if case .unhandled = try await doors.signal("a", .open, reason: "too late")?.outcome {} else {
            Issue.record("a final machine's state handled a signal")
        }
        #expect(try await store.history(of: "a").contains { $0.operation?.verb == "pause" } == false)
        #expect(try await store.machine("a")?.summary.status == .final)
        await doors.shutdown()
    }

    @Test func aCancelDuringAStoreOutageRecordsNothing() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        try await doors.activate(id: "a", data: Door.Data())
        store.beginOutage()
        do {
            try await doors.cancel("a", reason: "during the outage")
            Issue.record("a cancel the store did not take succeeded")
        } catch {
            #expect(error.kind == .notDurable)
        }
        store.endOutage()
        #expect(try await doors.send(to: "a", .open).target == .open)
        #expect(try await store.machine("a")?.summary.status == .running)
        await doors.shutdown()
    }
}
