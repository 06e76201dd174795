import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestFixtures
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The application that holds a SQLite store is SIGKILLed while it carries out a request from
/// beside it (the `actorfsm` command's way).
@Suite(.timeLimit(.minutes(3))) struct SQLiteOperatorKillTests {
    /// The requester learns at once that the request was abandoned, and the next process that
    /// opens the file finishes the signalled event and records the signal.
    @Test func anApplicationKilledMidSignalLeavesTheRequestAbandonedAndTheSignalRecorded() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("reminders.sqlite")
        var worker = try await TakeoverWorker.start(["sqlite", path, "ringing"])
        let requests = try SQLiteRequests(path: path)
        let number = try await requests.submit(OperatorRequest(machine: "r0", schema: "Reminder", verb: .signal,
                                                               reason: "ring it by hand", time: 1_000, event: .named("ring", payload: nil)))
        #expect(await worker.untilPrinted("ringing"))
        #expect(try await requests.progress(ofRequest: number) == .taken)
        worker.process.kill()
        #expect(worker.process.wait() & 0x7F == SIGKILL)
        #expect(try await requests.progress(ofRequest: number) == .abandoned)
        #expect(try await requests.outcome(ofRequest: number, until: .now + .seconds(60)) == .abandoned)

        let store = try SQLiteStore(path: path)
        let reminders = try Supervisor(schema: try reminderSchema(), durability: Durability(store: store))
        var reports = reminders.reports().makeAsyncIterator()
        #expect(try await reminders.restoreAll().restored == 1)
        #expect(await firstRecordOf(.ring, in: &reports)?.target == .rung)
        let history = try await store.history(of: "r0")
        #expect(history.map(\.kind) == [.created, .completed])
        #expect(history[1].operation?.verb == "signal" && history[1].operation?.reason == "ring it by hand")
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await reminders.shutdown()
    }
}
