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

    /// What `work` returned or threw.
    static func outcome<Value>(
        _ work: () async throws(MachineError<Door>) -> Value
    ) async -> Result<Value, MachineError<Door>> {
        do throws(MachineError<Door>) { return .success(try await work()) } catch { return .failure(error) }
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

    /// A machine's `stop()` racing an operator's cancel, or done just before it: either the
    /// cancel is recorded (by the machine, or in the store once it has stopped) and no restore
    /// brings the machine back, or the cancel is refused and the machine comes back as stored.
    /// Never a cancel reported done that the store lacks, nor one it holds that was refused;
    /// the summaries agree with the journals.
    @Test func aStopRacingACancelHasOneOutcome() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        let ids = (0..<40).map { "d\($0)" }
        for id in ids {
            try await doors.activate(id: id, data: Door.Data())
            try await doors.send(to: id, .lock)
        }
        var cancelled: Set<String> = []
        for (index, id) in ids.enumerated() {
            let machine = try #require(doors.machine(id: id))
            let cancel = { () async throws(MachineError<Door>) in try await doors.cancel(id, reason: "racing a stop") }
            let outcome: Result<CancelOutcome<Door>, MachineError<Door>>
            if index.isMultiple(of: 2) {
                async let stopping: Void = machine.stop()
                async let cancelling = Self.outcome(cancel)
                (_, outcome) = await (stopping, cancelling)
            } else {
                // The stop first: the cancel finds no running machine, and writes into the store.
                let stopping = Task { await machine.stop() }
                await machine.awaitEnd()
                outcome = await Self.outcome(cancel)
                await stopping.value
            }
            switch outcome {
            case .success(.ended): cancelled.insert(id)
            case .success(let other): Issue.record("\(id): a locked door's cancel was \(other)")
            case .failure(let error): #expect(error.kind == MachineErrorKind.stopped, "\(id): \(error)")
            }
        }
        await doors.shutdown()
        for id in ids {
            let recorded = try await store.history(of: id).contains { $0.operation?.verb == "cancel" }
            #expect(recorded == cancelled.contains(id), "\(id): the store and the caller disagree about the cancel")
        }
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        let restarted = try Supervisor(schema: try Self.kickableSchema(), durability: Self.durability(store))
        #expect(try await restarted.restoreAll().restored == ids.count - cancelled.count)
        await restarted.shutdown()
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
