import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestSupport

/// A bar tab whose events carry payloads: an operator's signal names them by case, with JSON.
enum Tab: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case open, settled }
    enum Event: CaseKeyed, Codable, Hashable, Sendable {
        case pay(amount: Int)
        case tip(Int)
        case close

        enum CaseKey: Hashable, Sendable { case pay, tip, close }
        var caseKey: CaseKey {
            switch self {
            case .pay: .pay
            case .tip: .tip
            case .close: .close
            }
        }
    }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var paid = 0 }

    static func schema() throws -> Schema<Tab> {
        try Schema<Tab>(initial: .open, final: [.settled]) {
            define(.open) {
                when(.pay) | then(.open) | { (context: TransitionContext<Tab>) in
                    if case .pay(let amount) = context.event { context.data.paid += amount }
                }
                when(.tip) | then(.open) | { (context: TransitionContext<Tab>) in
                    if case .tip(let amount) = context.event { context.data.paid += amount }
                }
                when(.close) | then(.settled)
            }
        }
    }
}

/// An operator's signal: an event sent to a machine for an operator, whose entries record the
/// act, from code, through the store's requests, and across a crash.
@Suite(.timeLimit(.minutes(3))) struct DurableSignalTests {
    @Test func aSignalledEventIsProcessedAndItsEntryNamesTheOperator() async throws {
        let store = InMemoryStore()
        let tabs = try Supervisor(schema: try Tab.schema(), durability: Durability(store: store))
        try await tabs.activate(id: "t1", data: Tab.Data())
        let record = try await tabs.signal("t1", .pay(amount: 12), reason: "paid by phone")
        #expect(record?.target == .open)
        #expect(try await tabs.send(to: "t1", .tip(3)).target == .open)
        #expect(await tabs.machine(id: "t1")?.data.paid == 15)
        let history = try await store.history(of: "t1")
        #expect(history.map(\.kind) == [.created, .completed, .completed])
        #expect(history[1].operation?.verb == "signal" && history[1].operation?.reason == "paid by phone")
        #expect(history[1].origin == "send" && history[1].event?.contains("pay") == true)
        #expect(history[2].operation == nil, "an ordinary send records no operator")
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await tabs.shutdown()
    }

    @Test func aPausedMachineRefusesASignalAndAnUnknownMachineIsReported() async throws {
        let store = InMemoryStore()
        let tabs = try Supervisor(schema: try Tab.schema(), durability: Durability(store: store))
        try await tabs.activate(id: "t1", data: Tab.Data())
        try await tabs.pause("t1", reason: "dispute")
        await #expect(throws: MachineError<Tab>.self) { try await tabs.signal("t1", .close, reason: "") }
        do {
            try await tabs.signal("t1", .close)
            Issue.record("a paused machine took a signal")
        } catch {
            #expect(error.kind == .paused)
        }
        do {
            try await tabs.signal("nobody", .close)
            Issue.record("a signal to an unknown machine was taken")
        } catch {
            #expect(error.kind == .unknownMachine)
        }
        try await tabs.resume("t1", reason: "")
        #expect(try await tabs.signal("t1", .close, reason: "settled at the bar")?.target == .settled)
        await tabs.shutdown()
    }

    /// A signalled event its state postpones is recorded as the signal once processed; the
    /// event that changed the state meanwhile is not.
    @Test func aPostponedSignalIsRecordedWithItsEventOnly() async throws {
        let store = InMemoryStore()
        let schema = try Schema<Door>(initial: .closed) {
            define(.closed) {
                when(.open) | then(.open)
                when(.kick) | postpone()
            }
            define(.open) { when(.kick) | then(.jammed) }
            define(.jammed) { when(.unlock) | then(.closed) }
        }
        let doors = try Supervisor(schema: schema, durability: doorDurability(store))
        let door = try await doors.activate(id: "a", data: Door.Data())
        let kicking = Task { try await doors.signal("a", .kick, reason: "test the jam") }
        await door.untilPostponed(1)
        #expect(try await doors.send(to: "a", .open).target == .open)
        #expect(try await kicking.value?.target == .jammed)
        let history = try await store.history(of: "a")
        #expect(history.map { $0.operation?.verb } == [nil, nil, "signal"])
        #expect(history.last?.event?.contains("kick") == true)
        await doors.shutdown()
    }

    /// An entry written again after its commit (a scheduled event made outside any action rides
    /// with the newest entry) keeps its event and the signal's note.
    @Test func anAmendedEntryKeepsItsEventAndItsSignal() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let door = try await doors.activate(id: "a", data: Door.Data())
        try await doors.signal("a", .open, reason: "by hand")
        try door.schedule(.close, after: .seconds(3_600))
        let history = try await store.history(of: "a")
        #expect(history.last?.pending.count == 1, "the amendment was written")
        #expect(history.last?.operation?.verb == "signal" && history.last?.event?.contains("open") == true)
        await doors.shutdown()
    }

    /// A signal the store cannot write fails with `.notDurable`, and nothing of it stays: the
    /// store holds no signal, the summaries agree with the journal, and the machine takes the
    /// same event again once the store is back.
    @Test func aSignalDuringAStoreOutageLeavesNothingBehind() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        store.beginOutage()
        do {
            _ = try await doors.signal("a", .open, reason: "during the outage")
            Issue.record("a signal the store did not take succeeded")
        } catch {
            #expect(error.kind == .notDurable)
        }
        store.endOutage()
        #expect(try await store.history(of: "a").allSatisfy { $0.operation == nil })
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        let again = try #require(try await doors.signal("a", .open, reason: "after the outage"))
        #expect(again.target == .open && again.sequenceNumber == 1)
        #expect(try await store.history(of: "a").compactMap(\.operation?.reason) == ["after the outage"])
        await doors.shutdown()
    }

    /// A signalled event whose action failed is retried as any failed event is.
    @Test func aFailedSignalIsRetried() async throws {
        let provider = DurableRetryByOperatorTests.Provider()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try DurableRetryByOperatorTests.schema(provider), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        await #expect(throws: MachineError<Door>.self) { try await doors.signal("a", .open, reason: "by hand") }
        #expect(try await store.history(of: "a").last?.operation?.verb == "signal")
        provider.isDown.store(false, ordering: .relaxed)
        var reports = doors.reports().makeAsyncIterator()
        try await doors.retry("a", reason: "the provider is back")
        #expect(await firstRecordOf(.open, in: &reports)?.outcome.isTransitioned == true)
        #expect(try await store.history(of: "a").last?.operation?.verb == "retry")
        await doors.shutdown()
    }

    /// A crash during a signalled event's action: the restore processes the event again, and
    /// its completed entry still records the signal.
    @Test func aSignalInterruptedByACrashIsRecordedByTheRestoreThatRunsIt() async throws {
        let crash = try await MidActionCrash.during { doors in try await doors.signal("a", .open, reason: "stuck closed") }
        let interrupted = try await crash.crashed.history(of: "a")
        #expect(interrupted.map(\.kind) == [.created, .intent])
        #expect(interrupted[1].operation?.verb == "signal")
        let history = try await crash.restoreOpening()
        #expect(history.last?.operation?.verb == "signal" && history.last?.operation?.reason == "stuck closed")
        await crash.finish()
    }

    /// Two crashes during a signalled event's action: the restore that runs it again writes its
    /// intent with the signal too, so the second restore still records it.
    @Test func aSignalInterruptedTwiceIsStillRecorded() async throws {
        let crash = try await MidActionCrash.during { doors in try await doors.signal("a", .open, reason: "stuck closed") }
        let second = Gate()
        let again = try Supervisor(schema: try DurablePauseTests.slowDoorSchema(second), durability: doorDurability(crash.crashed))
        #expect(try await again.restoreAll().restored == 1)
        await second.untilArrivals(1)
        #expect(try await crash.crashed.history(of: "a").last?.operation?.verb == "signal", "the intent written again")
        let twice = crash.crashedAgain()
        let history = try await twice.restoreOpening()
        #expect(history.last?.operation?.verb == "signal")
        second.open()
        await again.shutdown()
        await crash.finish()
    }

    /// Requests name the event by case, with its values as JSON; the application decodes them
    /// in each form Swift synthesizes, and refuses a name it cannot read.
    @Test func aRequestedSignalIsDecodedFromItsNameAndPayload() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tabs.sqlite")
        let store = try SQLiteStore(path: path)
        var durability = Durability<Tab>(store: store)
        durability.operatorRequestInterval = nil
        let tabs = try Supervisor(schema: try Tab.schema(), durability: durability)
        try await tabs.activate(id: "t1", data: Tab.Data())
        let requests = try SQLiteRequests(path: path)
        func signal(_ name: String, _ payload: String?) async throws -> OperatorRequestProgress {
            let number = try await requests.submit(OperatorRequest(machine: "t1", schema: "Tab", verb: .signal, reason: "desk",
                                                                   time: 1_000, event: .named(name, payload: payload)))
            #expect(await tabs.serveOperatorRequests() == 1)
            return try await requests.progress(ofRequest: number)
        }
        #expect(try await signal("pay", #"{"amount": 20}"#) == .answered(succeeded: true, message: "pay(amount: 20): now open"))
        #expect(try await signal("tip", "5") == .answered(succeeded: true, message: "tip(5): now open"))
        guard case .answered(false, let unknown) = try await signal("refund", #"{"amount": 1}"#) else {
            Issue.record("an unknown event was not refused")
            return
        }
        #expect(unknown.contains("no event of Event is named refund"))
        guard case .answered(false, let malformed) = try await signal("pay", "twenty") else {
            Issue.record("a payload that is not JSON was not refused")
            return
        }
        #expect(malformed.contains("refund") == false && malformed.contains("pay"))
        #expect(try await signal("close", nil) == .answered(succeeded: true, message: "close: now settled"))
        #expect(await tabs.machine(id: "t1")?.data.paid == 25)
        #expect(try await store.history(of: "t1").compactMap(\.operation?.verb) == ["signal", "signal", "signal"])
        requests.close()
        await tabs.shutdown()
        store.close()
        _ = folder
    }
}
