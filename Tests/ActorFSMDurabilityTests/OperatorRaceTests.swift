import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// Operators' verbs racing a machine's own events and timers: each event has exactly one
/// outcome (recorded, or refused as paused), the journal keeps one order, and the summaries
/// agree with it.
@Suite(.timeLimit(.minutes(3))) struct OperatorRaceTests {
    @Test func pausesAndResumesRacingSendsGiveEachSendOneOutcome() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        let sending = Task { () -> (recorded: [UInt64], refused: Int) in
            var recorded: [UInt64] = []
            var refused = 0
            for index in 0..<300 {
                let event: Door.Event = index.isMultiple(of: 2) ? .open : .close
                do throws(MachineError<Door>) {
                    recorded.append(try await doors.send(to: "a", event).sequenceNumber)
                } catch {
                    #expect(error.kind == MachineErrorKind.paused, "\(error)")
                    refused += 1
                }
            }
            return (recorded, refused)
        }
        for round in 0..<60 {
            try await doors.pause("a", reason: "round \(round)")
            try await doors.resume("a", reason: "round \(round)")
        }
        let (recorded, refused) = await sending.value
        #expect(recorded.count + refused == 300)
        let history = try await store.history(of: "a")
        #expect(history.map(\.sequenceNumber) == Array(0..<UInt64(history.count)), "one order, no gap")
        let events = history.filter { $0.event != nil && $0.operation == nil }.map(\.sequenceNumber)
        #expect(events == recorded, "each recorded send is in the journal once, in its order")
        let verbs = history.compactMap(\.operation?.verb)
        let pauses = verbs.filter { $0 == "pause" }.count
        #expect(pauses == verbs.count - pauses, "each pause is resumed")
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await doors.shutdown()
    }

    /// A pause racing a timer that falls due: the timeout fires exactly once, before the pause
    /// or on the resume.
    @Test func aPauseRacingATimerLetsItFireOnce() async throws {
        for _ in 0..<20 {
            let clock = ManualClock()
            let store = InMemoryStore()
            let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store, clock: clock),
                                       configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
            try await doors.activate(id: "a", data: Door.Data())
            try await doors.send(to: "a", .lock)
            async let advancing: Void = clock.advance(by: .seconds(60))
            async let pausing: Void = doors.pause("a", reason: "racing the timer")
            _ = try await (advancing, pausing)
            try await doors.resume("a", reason: "done")
            var reports = doors.reports().makeAsyncIterator()
            if await doors.machine(id: "a")?.state != .jammed {
                while let report = await reports.next() {
                    if report.record?.target == .jammed { break }
                }
            }
            let history = try await store.history(of: "a")
            #expect(history.filter { $0.state == "jammed" && $0.operation == nil }.count == 1, "\(history.map(\.kind))")
            #expect(await SummaryAudit.disagreements(in: store).isEmpty)
            await doors.shutdown()
        }
    }
}
